import { useMutation } from '@tanstack/react-query';
import type { ClientNotificationRequest } from '@maillon/common/schemas/field-work';
import { api } from '@/lib/api-client';

export function notifyClient(body: ClientNotificationRequest) {
  return api.post<{ success: true; message: string; visitDate: string }>('/api/emails/client-notification', body);
}

export function useNotifyClient() {
  return useMutation({ mutationFn: notifyClient });
}
