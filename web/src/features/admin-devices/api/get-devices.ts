import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceState } from '@maillon/common/enums';
import type { DeviceListItem, DueFilter, DueSubject } from '@maillon/common/schemas/devices';
import { getPage, qs } from '@/lib/api-client';

export const DEVICES_PAGE_SIZE = 20;

/** Every registry read lives under this prefix (list, device pages, export check). */
export const adminDevicesQueryKey = ['admin', 'devices'] as const;

export interface DeviceFilters {
  search: string;
  state: DeviceState | '';
  due: DueFilter | '';
  dueSubject: DueSubject;
  attention: boolean;
  offset: number;
}

export function getDevices(filters: DeviceFilters) {
  return getPage<DeviceListItem>(
    `/api/devices${qs({
      search: filters.search.trim(),
      state: filters.state,
      due: filters.due,
      dueSubject: filters.due ? filters.dueSubject : undefined,
      attention: filters.attention ? 'true' : undefined,
      limit: DEVICES_PAGE_SIZE,
      offset: filters.offset,
    })}`,
  );
}

export const devicesQueryOptions = (filters: DeviceFilters) =>
  queryOptions({
    queryKey: [...adminDevicesQueryKey, 'list', filters] as const,
    queryFn: () => getDevices(filters),
    placeholderData: keepPreviousData,
  });

export function useDevices(filters: DeviceFilters) {
  return useQuery(devicesQueryOptions(filters));
}
