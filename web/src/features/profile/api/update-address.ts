import { useMutation } from '@tanstack/react-query';
import type { UpdateAddress } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';
import { useApplyTechnician } from './technician-cache';

/** PATCH /api/technicians/{id} */
export function updateAddress(technicianId: string, body: UpdateAddress): Promise<Technician> {
  return api.patch<Technician>(`/api/technicians/${technicianId}`, body);
}

export function useUpdateAddress(technicianId: string) {
  const apply = useApplyTechnician();
  return useMutation({ mutationFn: (body: UpdateAddress) => updateAddress(technicianId, body), onSuccess: apply });
}
