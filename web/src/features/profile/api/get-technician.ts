import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';

export const technicianProfileQueryKey = (technicianId: string) => ['technicians', technicianId, 'profile'] as const;

export function getTechnician(technicianId: string): Promise<Technician> {
  return api.get<Technician>(`/api/technicians/${technicianId}`);
}

export const technicianProfileQueryOptions = (technicianId: string) =>
  queryOptions({ queryKey: technicianProfileQueryKey(technicianId), queryFn: () => getTechnician(technicianId) });

/** The profile shown by "Mon compte"; the session's copy is shown while it loads. */
export function useTechnicianProfile(technician: Technician) {
  return useQuery({ ...technicianProfileQueryOptions(technician.id), placeholderData: technician });
}
