import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveReportInput, VisitReportContext } from '@maillon/common/schemas/visit-reports';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { visitReportPath, visitReportQueryKey } from './get-visit-report';

/** The complete report: one idempotent PUT (the same content again changes nothing on the server). */
export function saveVisitReport({ missionId, report }: { missionId: string; report: SaveReportInput }): Promise<VisitReportContext> {
  return api.put<VisitReportContext>(visitReportPath(missionId), report as unknown as Record<string, unknown>);
}

/** Saves, keeps the answer as the report's data and refreshes the technician's lots (the device is now Effectué). */
export function useSaveVisitReport(technicianId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveVisitReport,
    onSuccess: (context, { missionId }) => {
      queryClient.setQueryData(visitReportQueryKey(missionId), context);
      void queryClient.invalidateQueries({ queryKey: queryKeys.applications(technicianId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.technicianCounts(technicianId) });
    },
  });
}
