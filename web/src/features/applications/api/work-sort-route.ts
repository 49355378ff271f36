import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SortRouteResponse } from '@maillon/common/schemas/field-work';
import { api } from '@/lib/api-client';
import { applicationWorkQueryKey } from './work-get-application-work';

export function sortRoute(applicationId: string) {
  return api.post<SortRouteResponse>(`/api/applications/${applicationId}/sort-route`);
}

/** Sorts the undone devices into a round trip; the stored order comes back with the refreshed work view. */
export function useSortRoute(technicianId: string, applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sortRoute(applicationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationWorkQueryKey(technicianId, applicationId) }),
  });
}
