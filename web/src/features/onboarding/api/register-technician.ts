import type { Registration, RegistrationResponse } from '@maillon/common/schemas/registration';
import { api } from '@/lib/api-client';

export interface RegisterTechnicianInput {
  values: Registration;
  identityDocument: File | null;
  cv: File | null;
}

/**
 * POST /api/technicians/register: multipart with the text fields, departments as a JSON array and the two files.
 * No mutation hook: the public pages don't load TanStack Query (decision 013).
 */
export function registerTechnician({ values, identityDocument, cv }: RegisterTechnicianInput): Promise<RegistrationResponse> {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (key === 'departments') form.append(key, JSON.stringify(value));
    else if (value !== undefined && value !== null) form.append(key, String(value));
  }
  if (identityDocument) form.append('identityDocument', identityDocument);
  if (cv) form.append('cv', cv);
  return api.post<RegistrationResponse>('/api/technicians/register', form);
}
