import { useMutation } from '@tanstack/react-query';
import type { UpdateDepartments } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';
import { useApplyTechnician } from './technician-cache';

/** PATCH /api/technicians/{id}/departments */
export function updateDepartments(technicianId: string, body: UpdateDepartments): Promise<Technician> {
  return api.patch<Technician>(`/api/technicians/${technicianId}/departments`, body);
}

export function useUpdateDepartments(technicianId: string) {
  const apply = useApplyTechnician();
  return useMutation({ mutationFn: (body: UpdateDepartments) => updateDepartments(technicianId, body), onSuccess: apply });
}
