import { useMutation } from '@tanstack/react-query';
import type { UpdateRelayPoint } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';
import { useApplyTechnician } from './technician-cache';

/** PATCH /api/technicians/{id}/relay-point */
export function updateRelayPoint(technicianId: string, body: UpdateRelayPoint): Promise<Technician> {
  return api.patch<Technician>(`/api/technicians/${technicianId}/relay-point`, body);
}

export function useUpdateRelayPoint(technicianId: string) {
  const apply = useApplyTechnician();
  return useMutation({ mutationFn: (body: UpdateRelayPoint) => updateRelayPoint(technicianId, body), onSuccess: apply });
}
