import type { ResetPasswordConfirm } from '@maillon/common/schemas/registration';
import type { SuccessResponse } from '@maillon/common/schemas/profile';
import { api } from '@/lib/api-client';

/**
 * POST /api/technicians/reset-password/confirm: uses the e-mailed single-use link.
 * No mutation hook: the public pages don't load TanStack Query (decision 013).
 */
export function confirmPasswordReset(body: ResetPasswordConfirm): Promise<SuccessResponse> {
  return api.post<SuccessResponse>('/api/technicians/reset-password/confirm', body);
}
