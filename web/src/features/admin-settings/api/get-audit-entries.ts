import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@maillon/common/schemas/settings';
import { getPage, qs } from '@/lib/api-client';
import { adminSettingsQueryKey } from './get-admin-settings';

export const AUDIT_PAGE_SIZE = 10;

export function getAuditEntries(offset: number) {
  return getPage<AuditEntry>(`/api/admin/audit${qs({ limit: AUDIT_PAGE_SIZE, offset })}`);
}

/** The audit trail of sensitive admin actions, newest first. */
export const auditEntriesQueryOptions = (offset: number) =>
  queryOptions({
    queryKey: [...adminSettingsQueryKey, 'audit', offset] as const,
    queryFn: () => getAuditEntries(offset),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useAuditEntries(offset: number) {
  return useQuery(auditEntriesQueryOptions(offset));
}
