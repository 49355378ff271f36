import { useMutation } from '@tanstack/react-query';
import type { UpdateProfessional } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';
import { useApplyTechnician } from './technician-cache';

/** PATCH /api/technicians/{id}/professional */
export function updateProfessional(technicianId: string, body: UpdateProfessional): Promise<Technician> {
  return api.patch<Technician>(`/api/technicians/${technicianId}/professional`, body);
}

export function useUpdateProfessional(technicianId: string) {
  const apply = useApplyTechnician();
  return useMutation({ mutationFn: (body: UpdateProfessional) => updateProfessional(technicianId, body), onSuccess: apply });
}
