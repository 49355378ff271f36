import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VisitReportContext } from '@maillon/common/schemas/visit-reports';
import { api } from '@/lib/api-client';

export function visitReportPath(missionId: string, rest = ''): string {
  return `/api/missions/${encodeURIComponent(missionId)}/visit-report${rest}`;
}

export function getVisitReport(missionId: string): Promise<VisitReportContext> {
  return api.get<VisitReportContext>(visitReportPath(missionId));
}

export const visitReportQueryKey = (missionId: string) => ['visit-reports', missionId] as const;

export const visitReportQueryOptions = (missionId: string) =>
  queryOptions({
    queryKey: visitReportQueryKey(missionId),
    queryFn: () => getVisitReport(missionId),
    // The form owns the values once loaded: a background refetch must not replace what is being typed.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });

export function useVisitReport(missionId: string) {
  return useQuery(visitReportQueryOptions(missionId));
}
