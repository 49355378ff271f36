import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface PublicConfig {
  productName: string;
  charityName: string;
  adminEmailHint: string;
}

export const publicConfigQueryOptions = () =>
  queryOptions({ queryKey: ['public-config'], queryFn: () => api.get<PublicConfig>('/api/public/config') });

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}
