import { useMutation } from '@tanstack/react-query';
import type { ChangePassword, SuccessResponse } from '@maillon/common/schemas/profile';
import { api } from '@/lib/api-client';

/** PATCH /api/users/{id}/password: the account's other sessions end. */
export function changePassword(userId: string, body: ChangePassword): Promise<SuccessResponse> {
  return api.patch<SuccessResponse>(`/api/users/${userId}/password`, body);
}

export function useChangePassword(userId: string) {
  return useMutation({ mutationFn: (body: ChangePassword) => changePassword(userId, body) });
}
