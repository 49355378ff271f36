import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OutboxEmail } from '@maillon/common/schemas/settings';
import { getPage, qs } from '@/lib/api-client';
import { adminSettingsQueryKey } from './get-admin-settings';

export const OUTBOX_PAGE_SIZE = 5;

export function getOutboxEmails(offset: number) {
  return getPage<OutboxEmail>(`/api/admin/settings/emails${qs({ limit: OUTBOX_PAGE_SIZE, offset })}`);
}

/** The latest e-mails of the outbox, newest first. */
export const outboxEmailsQueryOptions = (offset: number) =>
  queryOptions({
    queryKey: [...adminSettingsQueryKey, 'emails', offset] as const,
    queryFn: () => getOutboxEmails(offset),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useOutboxEmails(offset: number) {
  return useQuery(outboxEmailsQueryOptions(offset));
}
