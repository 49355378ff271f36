import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ResourceView } from '@maillon/common/schemas/learning-resources';
import { api, qs } from '@/lib/api-client';

export const resourceViewsQueryKey = (technicianId: string) => ['resource-views', technicianId] as const;

export function getResourceViews(technicianId: string): Promise<ResourceView[]> {
  return api.get<ResourceView[]>(`/api/resource-views${qs({ technicianId })}`);
}

export const resourceViewsQueryOptions = (technicianId: string) =>
  queryOptions({ queryKey: resourceViewsQueryKey(technicianId), queryFn: () => getResourceViews(technicianId) });

export function useResourceViews(technicianId: string) {
  return useQuery(resourceViewsQueryOptions(technicianId));
}
