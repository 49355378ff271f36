import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ApplicationPill } from '@maillon/common/enums';
import type { TechnicianApplication } from '@maillon/common/schemas/applications';
import { getPage, qs } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const APPLICATIONS_PAGE_SIZE = 20;

export function getApplications({ technicianId, status, offset }: { technicianId: string; status: ApplicationPill; offset: number }) {
  return getPage<TechnicianApplication>(`/api/applications${qs({ technicianId, status, limit: APPLICATIONS_PAGE_SIZE, offset })}`);
}

/** The technician's applications under one pill, with their lot, newest first, paged by the server. */
export const applicationsQueryOptions = (technicianId: string, status: ApplicationPill) =>
  infiniteQueryOptions({
    queryKey: [...queryKeys.applications(technicianId), 'list', status] as const,
    queryFn: ({ pageParam }) => getApplications({ technicianId, status, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < lastPage.total && lastPage.items.length > 0 ? loaded : undefined;
    },
  });

export function useApplications(technicianId: string, status: ApplicationPill) {
  return useInfiniteQuery(applicationsQueryOptions(technicianId, status));
}
