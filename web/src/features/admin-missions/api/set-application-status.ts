import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApplicationWithTechnician } from '@maillon/common/schemas/admin-missions';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminMissionsKeys, invalidateMissionsAndLots } from './keys';

/** PATCH /api/applications/{id}/status: Sélectionner (Recruté) or Refuser (Refusé). */
export function setApplicationStatus({ id, status }: { id: string; status: 'Recruté' | 'Refusé' }) {
  return api.patch<ApplicationWithTechnician>(`/api/applications/${id}/status`, { status });
}

export function useSetApplicationStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setApplicationStatus,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminMissionsKeys.applications }),
        invalidateMissionsAndLots(queryClient),
        // The selected technician receives the lot's proposed parcel.
        queryClient.invalidateQueries({ queryKey: queryKeys.adminShipments }),
      ]),
  });
}
