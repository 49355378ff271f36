import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApplicationTransition } from '@maillon/common/schemas/field-work';
import { api } from '@/lib/api-client';

export function completeApplication(applicationId: string) {
  return api.patch<ApplicationTransition>(`/api/applications/${applicationId}/complete`);
}

/** Finishing moves the lot, the invoice and the counts: every cached read is refreshed. */
export function useCompleteApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeApplication,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
