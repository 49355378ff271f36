import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { JobStatus } from '@maillon/common/enums';
import type { Job } from '@maillon/common/schemas/moderation';
import { getPage, qs } from '@/lib/api-client';
import { moderationKeys } from './keys';

const PATHS: Record<JobStatus, string> = { pending: '/api/missions/moderation', refused: '/api/missions/refused' };

/** GET /api/missions/moderation (À modérer) or GET /api/missions/refused (Refusées), paged by the server. */
export function getJobs(status: JobStatus, params: { offset: number; limit: number }) {
  return getPage<Job>(`${PATHS[status]}${qs(params)}`);
}

export function jobsQueryOptions(status: JobStatus, params: { offset: number; limit: number }) {
  return queryOptions({
    queryKey: moderationKeys.list(status, params),
    queryFn: () => getJobs(status, params),
    placeholderData: keepPreviousData,
  });
}

export function useJobs(status: JobStatus, params: { offset: number; limit: number }) {
  return useQuery(jobsQueryOptions(status, params));
}
