import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApplicationTransition } from '@maillon/common/schemas/field-work';
import { api } from '@/lib/api-client';

export function cancelApplication(applicationId: string) {
  return api.patch<ApplicationTransition>(`/api/applications/${applicationId}/cancel`);
}

/** Cancelling removes the invoice and reopens the lot: every cached read is refreshed. */
export function useCancelApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelApplication,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
