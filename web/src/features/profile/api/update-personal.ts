import { useMutation } from '@tanstack/react-query';
import type { UpdatePersonal } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';
import { useApplyTechnician } from './technician-cache';

/** PATCH /api/technicians/{id}/personal */
export function updatePersonal(technicianId: string, body: UpdatePersonal): Promise<Technician> {
  return api.patch<Technician>(`/api/technicians/${technicianId}/personal`, body);
}

export function useUpdatePersonal(technicianId: string) {
  const apply = useApplyTechnician();
  return useMutation({ mutationFn: (body: UpdatePersonal) => updatePersonal(technicianId, body), onSuccess: apply });
}
