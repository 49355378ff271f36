import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordConfirm } from '@maillon/common/schemas/registration';
import type { SuccessResponse } from '@maillon/common/schemas/profile';
import { api } from '@/lib/api-client';

/** POST /api/technicians/reset-password/confirm: uses the e-mailed single-use link. */
export function confirmPasswordReset(body: ResetPasswordConfirm): Promise<SuccessResponse> {
  return api.post<SuccessResponse>('/api/technicians/reset-password/confirm', body);
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
