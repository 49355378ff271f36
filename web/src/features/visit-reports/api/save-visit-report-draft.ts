import { useMutation } from '@tanstack/react-query';
import type { SaveReportDraftInput, VisitReport } from '@maillon/common/schemas/visit-reports';
import { api } from '@/lib/api-client';
import { visitReportPath } from './get-visit-report';

/** Autosave: one idempotent PUT with the report's id (made on the phone); replaying it changes nothing. */
export function saveVisitReportDraft({ missionId, draft }: { missionId: string; draft: SaveReportDraftInput }): Promise<VisitReport> {
  return api.put<VisitReport>(visitReportPath(missionId, '/draft'), draft as unknown as Record<string, unknown>);
}

export function useSaveVisitReportDraft() {
  return useMutation({ mutationFn: saveVisitReportDraft });
}
