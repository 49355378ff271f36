import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JobCounts } from '@maillon/common/schemas/moderation';
import { api } from '@/lib/api-client';
import { moderationKeys } from './keys';

export function getJobCounts() {
  return api.get<JobCounts>('/api/jobs/counts');
}

export const jobCountsQueryOptions = queryOptions({ queryKey: moderationKeys.counts, queryFn: getJobCounts });

export function useJobCounts() {
  return useQuery(jobCountsQueryOptions);
}
