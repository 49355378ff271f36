import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, SessionResponse } from '@maillon/common/schemas/auth';
import { api } from '@/lib/api-client';
import { storeSession } from '@/lib/session';
import { meQueryKey } from './get-me';

export function login(body: LoginRequest): Promise<SessionResponse> {
  return api.post<SessionResponse>('/api/auth/login', body);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (session) => {
      storeSession(session);
      queryClient.setQueryData(meQueryKey, session);
    },
  });
}
