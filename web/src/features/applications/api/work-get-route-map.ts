import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RouteMap } from '@maillon/common/schemas/field-work';
import { api } from '@/lib/api-client';
import { applicationWorkQueryKey } from './work-get-application-work';

export function getRouteMap(applicationId: string): Promise<RouteMap> {
  return api.get<RouteMap>(`/api/applications/${applicationId}/route-map`);
}

/** Under the work view's key: sorting the route or ticking a device refreshes the map with it. */
export const routeMapQueryOptions = (technicianId: string, applicationId: string) =>
  queryOptions({
    queryKey: [...applicationWorkQueryKey(technicianId, applicationId), 'route-map'] as const,
    queryFn: () => getRouteMap(applicationId),
  });

export function useRouteMap(technicianId: string, applicationId: string) {
  return useQuery(routeMapQueryOptions(technicianId, applicationId));
}
