import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApplicationWithTechnician } from '@maillon/common/schemas/admin-missions';
import { api } from '@/lib/api-client';
import { adminMissionsKeys } from './keys';

/** PATCH /api/applications/{id}/admin-comment: a message to the technician. */
export function saveAdminComment({ id, adminComment }: { id: string; adminComment: string }) {
  return api.patch<{ message: string; application: ApplicationWithTechnician }>(`/api/applications/${id}/admin-comment`, { adminComment });
}

export function useSaveAdminComment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveAdminComment, onSuccess: () => queryClient.invalidateQueries({ queryKey: adminMissionsKeys.applications }) });
}
