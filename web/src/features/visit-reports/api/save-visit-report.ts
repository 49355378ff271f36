import { SITE_INACCESSIBLE } from '@maillon/common/enums';
import type { SaveReportInput } from '@maillon/common/schemas/visit-reports';
import type { QueuedRequestSpec } from '@/lib/offline/queue';
import { useQueuedRequest } from '@/lib/offline/use-queue';
import { queryKeys } from '@/lib/query-keys';
import { visitReportPath, visitReportQueryKey } from './get-visit-report';
import { reportTarget } from './report-target';

export interface SaveReportQueuedInput {
  missionId: string;
  technicianId: string;
  title: string;
  report: SaveReportInput;
}

/**
 * The complete report: one idempotent PUT (the same content again changes nothing on the server), queued offline after
 * the device's drafts and photos. A newer complete report replaces one that has not left yet. Until the server has it,
 * the Recruté view shows the device Effectué (« Site inaccessible » leaves it À faire, as the server does).
 */
export function saveReportRequest({ missionId, technicianId, title, report }: SaveReportQueuedInput): QueuedRequestSpec {
  return {
    method: 'PUT',
    url: visitReportPath(missionId),
    json: report as unknown as Record<string, unknown>,
    label: `Rapport de visite — ${title}`,
    target: reportTarget(missionId),
    scope: reportTarget(missionId),
    replaces: `${reportTarget(missionId)}:report`,
    // The complete report holds everything a waiting draft would send: the draft is dropped, never sent or refused.
    supersedes: [`${reportTarget(missionId)}:report-draft`],
    ...(report.outcome && report.outcome !== SITE_INACCESSIBLE ? { shows: { isCompleted: true } } : {}),
    invalidate: [visitReportQueryKey(missionId), queryKeys.applications(technicianId)],
  };
}

export function useSaveVisitReport() {
  return useQueuedRequest(saveReportRequest);
}
