import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device, UpdateDeviceInput } from '@maillon/common/schemas/devices';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { adminDevicesQueryKey } from './get-devices';

export function updateDevice({ deviceId, changes }: { deviceId: string; changes: UpdateDeviceInput }): Promise<Device> {
  return api.patch<Device>(`/api/devices/${encodeURIComponent(deviceId)}`, changes as Record<string, unknown>);
}

export function useUpdateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDevice,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminDevicesQueryKey });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminCounts });
    },
  });
}
