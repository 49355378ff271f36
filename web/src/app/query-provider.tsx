import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@/lib/query-client';

// One cache for the page's lifetime, shared by both dashboards (logout clears it). Created when a dashboard first
// loads: the public pages don't use TanStack Query (decision 013).
const queryClient = createQueryClient();

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
