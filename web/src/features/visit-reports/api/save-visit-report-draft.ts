import type { SaveReportDraftInput } from '@maillon/common/schemas/visit-reports';
import type { QueuedRequestSpec } from '@/lib/offline/queue';
import { useQueuedRequest } from '@/lib/offline/use-queue';
import { visitReportPath, visitReportQueryKey } from './get-visit-report';
import { reportTarget } from './report-target';

export interface SaveDraftInput {
  missionId: string;
  /** The device's title, for the pending and refused lists. */
  title: string;
  draft: SaveReportDraftInput;
}

/**
 * Autosave: the full draft in one idempotent PUT (the report's id is made on the phone), queued offline; a newer draft
 * replaces one that has not left yet, so only the latest waits for the network.
 */
export function saveDraftRequest({ missionId, title, draft }: SaveDraftInput): QueuedRequestSpec {
  return {
    method: 'PUT',
    url: visitReportPath(missionId, '/draft'),
    json: draft as unknown as Record<string, unknown>,
    label: `Brouillon du rapport de visite — ${title}`,
    target: reportTarget(missionId),
    scope: reportTarget(missionId),
    replaces: `${reportTarget(missionId)}:report-draft`,
    invalidate: [visitReportQueryKey(missionId)],
  };
}

export function useSaveVisitReportDraft() {
  return useQueuedRequest(saveDraftRequest);
}
