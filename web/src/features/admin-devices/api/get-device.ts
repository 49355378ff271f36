import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceDetail } from '@maillon/common/schemas/devices';
import { api } from '@/lib/api-client';
import { adminDevicesQueryKey } from './get-devices';

export function getDevice(deviceId: string): Promise<DeviceDetail> {
  return api.get<DeviceDetail>(`/api/devices/${encodeURIComponent(deviceId)}`);
}

export const deviceQueryOptions = (deviceId: string) =>
  queryOptions({ queryKey: [...adminDevicesQueryKey, 'detail', deviceId] as const, queryFn: () => getDevice(deviceId) });

export function useDevice(deviceId: string | null) {
  return useQuery({ ...deviceQueryOptions(deviceId ?? ''), enabled: Boolean(deviceId) });
}
