import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApplicationWork, TechnicianLotComment } from '@maillon/common/schemas/field-work';
import { api } from '@/lib/api-client';
import { applicationWorkQueryKey } from './work-get-application-work';

export function saveTechnicianComment({ applicationId, content }: { applicationId: string; content: string }) {
  return api.put<TechnicianLotComment>(`/api/applications/${applicationId}/technician-comment`, { content });
}

/** "Commentaire pour l'admin" of a lot; the cached work view is patched rather than refetched. */
export function useSaveTechnicianComment(technicianId: string, applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => saveTechnicianComment({ applicationId, content }),
    onSuccess: (comment) =>
      queryClient.setQueryData<ApplicationWork>(applicationWorkQueryKey(technicianId, applicationId), (work) =>
        work ? { ...work, technicianComment: comment } : work,
      ),
  });
}
