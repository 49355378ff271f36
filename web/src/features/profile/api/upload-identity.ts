import { useMutation } from '@tanstack/react-query';
import type { Technician } from '@maillon/common/schemas/technicians';
import { api } from '@/lib/api-client';
import { useApplyTechnician } from './technician-cache';

/** POST /api/technicians/{id}/upload-identity (multipart, field "file"); the previous file is replaced. */
export function uploadIdentity(technicianId: string, file: File): Promise<Technician> {
  const form = new FormData();
  form.append('file', file);
  return api.post<Technician>(`/api/technicians/${technicianId}/upload-identity`, form);
}

export function useUploadIdentity(technicianId: string) {
  const apply = useApplyTechnician();
  return useMutation({ mutationFn: (file: File) => uploadIdentity(technicianId, file), onSuccess: apply });
}
