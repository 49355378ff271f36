import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminTechnician } from '@maillon/common/schemas/admin-technicians';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminTechniciansQueryKey } from './get-technicians';

export type ModerationAction = 'approve' | 'reject' | 'deactivate' | 'restore';

export function moderateTechnician({ id, action }: { id: string; action: ModerationAction }) {
  return api.patch<AdminTechnician>(`/api/technicians/${id}/${action}`);
}

/** Approve, reject, deactivate or restore ("Remettre"): refreshes the lists, the sub-tab counts and the sidebar badge. */
export function useModerateTechnician() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moderateTechnician,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminTechniciansQueryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts }),
      ]),
  });
}
