import type { ForgotPassword } from '@maillon/common/schemas/registration';
import type { SuccessResponse } from '@maillon/common/schemas/profile';
import { api } from '@/lib/api-client';

/**
 * POST /api/technicians/reset-password: always answers success (the address is never revealed).
 * No mutation hook: the public pages don't load TanStack Query (decision 013).
 */
export function requestPasswordReset(body: ForgotPassword): Promise<SuccessResponse> {
  return api.post<SuccessResponse>('/api/technicians/reset-password', body);
}
