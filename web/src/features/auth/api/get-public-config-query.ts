import { queryOptions, useQuery } from '@tanstack/react-query';
import { getPublicConfig } from './get-public-config';

// Apart from the fetcher, which the admin login imports without loading TanStack Query (decision 013).
export const publicConfigQueryOptions = () => queryOptions({ queryKey: ['public-config'], queryFn: getPublicConfig });

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}
