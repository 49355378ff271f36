import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateDeviceInput, Device } from '@maillon/common/schemas/devices';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminDevicesQueryKey } from './get-devices';

export function createDevice(body: CreateDeviceInput): Promise<Device> {
  return api.post<Device>('/api/devices', body as Record<string, unknown>);
}

export function useCreateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDevice,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminDevicesQueryKey });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts });
    },
  });
}
