import { useMutation } from '@tanstack/react-query';
import type { UpdateComments } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';
import { useApplyTechnician } from './technician-cache';

/** PATCH /api/technicians/{id}/comments */
export function updateComments(technicianId: string, body: UpdateComments): Promise<Technician> {
  return api.patch<Technician>(`/api/technicians/${technicianId}/comments`, body);
}

export function useUpdateComments(technicianId: string) {
  const apply = useApplyTechnician();
  return useMutation({ mutationFn: (body: UpdateComments) => updateComments(technicianId, body), onSuccess: apply });
}
