import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { visitReportPath } from './get-visit-report';

/** Idempotent: a photo already gone answers success too. */
export function deleteVisitPhoto({ missionId, photoId }: { missionId: string; photoId: string }): Promise<{ success: true }> {
  return api.delete<{ success: true }>(visitReportPath(missionId, `/photos/${encodeURIComponent(photoId)}`));
}

export function useDeleteVisitPhoto() {
  return useMutation({ mutationFn: deleteVisitPhoto });
}
