import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminTechniciansQueryKey } from './get-technicians';

export function deleteTechnician(id: string) {
  return api.delete<{ success: true }>(`/api/technicians/${id}`);
}

/** Permanent deletion of a deactivated technician. */
export function useDeleteTechnician() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTechnician,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminTechniciansQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
