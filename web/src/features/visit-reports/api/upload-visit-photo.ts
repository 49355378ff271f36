import type { QueuedRequestSpec } from '@/lib/offline/queue';
import { useQueuedRequest } from '@/lib/offline/use-queue';
import { visitReportPath, visitReportQueryKey } from './get-visit-report';
import { reportTarget } from './report-target';

export interface UploadPhotoInput {
  missionId: string;
  title: string;
  reportId: string;
  photoId: string;
  file: Blob;
}

/**
 * One photo per request, under the id the phone gave it (sending it again answers the stored photo). Queued offline with
 * the image as a Blob (IndexedDB keeps it as it is), in the device's scope: it reaches the server before the complete
 * report that lists it.
 */
export function uploadPhotoRequest({ missionId, title, reportId, photoId, file }: UploadPhotoInput): QueuedRequestSpec {
  return {
    method: 'PUT',
    url: visitReportPath(missionId, `/photos/${encodeURIComponent(photoId)}`),
    form: [
      { name: 'reportId', value: reportId },
      { name: 'file', file, fileName: 'photo.jpg' },
    ],
    label: `Photo du rapport de visite — ${title}`,
    target: reportTarget(missionId),
    scope: reportTarget(missionId),
    invalidate: [visitReportQueryKey(missionId)],
  };
}

export function useUploadVisitPhoto() {
  return useQueuedRequest(uploadPhotoRequest);
}
