import { useMutation } from '@tanstack/react-query';
import type { VisitPhoto } from '@maillon/common/schemas/visit-reports';
import { api } from '@/lib/api-client';
import { visitReportPath } from './get-visit-report';

/** One photo per request, under the id the phone gave it: sending it again answers the stored photo. */
export function uploadVisitPhoto({ missionId, reportId, photoId, file }: { missionId: string; reportId: string; photoId: string; file: Blob }): Promise<VisitPhoto> {
  const form = new FormData();
  form.set('reportId', reportId);
  form.set('file', file, 'photo.jpg');
  return api.put<VisitPhoto>(visitReportPath(missionId, `/photos/${encodeURIComponent(photoId)}`), form);
}

export function useUploadVisitPhoto() {
  return useMutation({ mutationFn: uploadVisitPhoto });
}
