import type { JobStatus } from '@maillon/common/enums';

/** Query keys of the moderation tab. Everything lives under ['admin', 'jobs']. */
export const moderationKeys = {
  all: ['admin', 'jobs'] as const,
  list: (status: JobStatus, params: { offset: number; limit: number }) => ['admin', 'jobs', status, params] as const,
  counts: ['admin', 'jobs', 'counts'] as const,
};

/**
 * Missions lists of the "Missions & Lots" tab (another feature): a validated visit lands in "À trier".
 * Shared by key only, so the features stay independent.
 */
export const adminMissionsPrefix = ['admin', 'missions'] as const;

export const JOBS_PAGE_SIZE = 20;
