import { useState } from 'react';
import { Inbox } from 'lucide-react';
import { EMAIL_STATUS_LABELS, type OutboxEmail } from '@maillon/common/schemas/settings';
import { Badge } from '@/components/ui/badge';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/feedback';
import { PagedTable, type PagedTableColumn } from '@/components/ui/paged-table';
import { OUTBOX_PAGE_SIZE, useOutboxEmails } from '../api/get-outbox-emails';

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const STATUS_VARIANT = { pending: 'warning', sent: 'success', logged: 'secondary', failed: 'danger' } as const;

const columns: PagedTableColumn<OutboxEmail>[] = [
  { header: 'Date', cellClassName: 'whitespace-nowrap tabular-nums', cell: (email) => dateTime.format(new Date(email.createdAt)) },
  { header: 'Destinataire', cell: (email) => email.to },
  { header: 'Objet', cell: (email) => email.subject },
  { header: 'Statut', cell: (email) => <Badge variant={STATUS_VARIANT[email.status]}>{EMAIL_STATUS_LABELS[email.status]}</Badge> },
  { header: 'Tentatives', className: 'text-right', cellClassName: 'tabular-nums', cell: (email) => email.attempts },
  {
    header: 'Dernière erreur',
    cellClassName: 'max-w-56 truncate text-muted-foreground',
    cell: (email) => email.lastError ?? '—',
    title: (email) => email.lastError ?? undefined,
  },
];

/** The outbox, newest first, paged on the server. */
export function OutboxEmails() {
  const [offset, setOffset] = useState(0);
  const emails = useOutboxEmails(offset);
  if (emails.isPending) return <Spinner />;
  if (emails.isError) return <ErrorState error={emails.error} />;
  if (emails.data.items.length === 0) return <EmptyState icon={<Inbox />} title="Aucun e-mail pour le moment" />;
  return (
    <PagedTable
      columns={columns}
      rows={emails.data.items}
      rowKey={(email) => email.id}
      dimmed={emails.isPlaceholderData}
      offset={offset}
      limit={OUTBOX_PAGE_SIZE}
      total={emails.data.total}
      onOffsetChange={setOffset}
      pagerLabel="Pages des e-mails"
    />
  );
}
