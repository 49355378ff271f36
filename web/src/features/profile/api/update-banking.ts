import { useMutation } from '@tanstack/react-query';
import type { UpdateBanking } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';
import { useApplyTechnician } from './technician-cache';

/** PATCH /api/technicians/{id}/banking */
export function updateBanking(technicianId: string, body: UpdateBanking): Promise<Technician> {
  return api.patch<Technician>(`/api/technicians/${technicianId}/banking`, body);
}

export function useUpdateBanking(technicianId: string) {
  const apply = useApplyTechnician();
  return useMutation({ mutationFn: (body: UpdateBanking) => updateBanking(technicianId, body), onSuccess: apply });
}
