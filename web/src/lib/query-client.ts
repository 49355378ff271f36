import { QueryClient } from '@tanstack/react-query';

/** Spec §7/§9: reads never retried, not refetched on focus, never stale, unused entries kept 5 minutes. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        gcTime: 300_000,
      },
      mutations: { retry: false },
    },
  });
}
