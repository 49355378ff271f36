import { useState } from 'react';
import { Inbox } from 'lucide-react';
import { EMAIL_STATUS_LABELS } from '@maillon/common/schemas/settings';
import { Badge } from '@/components/ui/badge';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/feedback';
import { Pager } from '@/components/ui/pager';
import { OUTBOX_PAGE_SIZE, useOutboxEmails } from '../api/get-outbox-emails';

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const STATUS_VARIANT = { pending: 'warning', sent: 'success', logged: 'secondary', failed: 'danger' } as const;

/** The outbox, newest first, paged on the server. */
export function OutboxEmails() {
  const [offset, setOffset] = useState(0);
  const emails = useOutboxEmails(offset);
  if (emails.isPending) return <Spinner />;
  if (emails.isError) return <ErrorState error={emails.error} />;
  if (emails.data.items.length === 0) return <EmptyState icon={<Inbox />} title="Aucun e-mail pour le moment" />;
  return (
    <div className="grid gap-3">
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-left text-sm">
          <thead className="bg-muted/60 text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Date
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Destinataire
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Objet
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Statut
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Tentatives
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Dernière erreur
              </th>
            </tr>
          </thead>
          <tbody className={emails.isPlaceholderData ? 'divide-y opacity-60' : 'divide-y'}>
            {emails.data.items.map((email) => (
              <tr key={email.id}>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums">{dateTime.format(new Date(email.createdAt))}</td>
                <td className="px-3 py-2">{email.to}</td>
                <td className="px-3 py-2">{email.subject}</td>
                <td className="px-3 py-2">
                  <Badge variant={STATUS_VARIANT[email.status]}>{EMAIL_STATUS_LABELS[email.status]}</Badge>
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{email.attempts}</td>
                <td className="max-w-56 truncate px-3 py-2 text-muted-foreground" title={email.lastError ?? undefined}>
                  {email.lastError ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager offset={offset} limit={OUTBOX_PAGE_SIZE} total={emails.data.total} onChange={setOffset} label="Pages des e-mails" />
    </div>
  );
}
