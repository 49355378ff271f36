import type { QueuedRequestSpec } from '@/lib/offline/queue';
import { useQueuedRequest } from '@/lib/offline/use-queue';
import { visitReportPath, visitReportQueryKey } from './get-visit-report';
import { reportTarget } from './report-target';

export interface DeletePhotoInput {
  missionId: string;
  title: string;
  photoId: string;
}

/** Idempotent (a photo already gone answers success too); queued after the photo's upload when both wait. */
export function deletePhotoRequest({ missionId, title, photoId }: DeletePhotoInput): QueuedRequestSpec {
  return {
    method: 'DELETE',
    url: visitReportPath(missionId, `/photos/${encodeURIComponent(photoId)}`),
    label: `Photo retirée du rapport de visite — ${title}`,
    target: reportTarget(missionId),
    scope: reportTarget(missionId),
    invalidate: [visitReportQueryKey(missionId)],
  };
}

export function useDeleteVisitPhoto() {
  return useQueuedRequest(deletePhotoRequest);
}
