import { useState } from 'react';
import { History } from 'lucide-react';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/feedback';
import { Pager } from '@/components/ui/pager';
import { AUDIT_PAGE_SIZE, useAuditEntries } from '../api/get-audit-entries';

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'Europe/Paris' });

/** Compact "key: before → after" lines from the JSON snapshots kept by the audit log. */
function describeChange(before: string | null, after: string | null): string {
  const parse = (text: string | null): Record<string, unknown> => {
    if (!text) return {};
    try {
      const value: unknown = JSON.parse(text);
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { valeur: value };
    } catch {
      return { valeur: text };
    }
  };
  const b = parse(before);
  const a = parse(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const show = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return keys
    .slice(0, 4)
    .map((k) => (k in b && k in a ? `${k} : ${show(b[k])} → ${show(a[k])}` : `${k} : ${show(k in a ? a[k] : b[k])}`))
    .join(' · ');
}

/** Who did each sensitive action, when, with the state before and after (append-only on the server). */
export function AuditTrail() {
  const [offset, setOffset] = useState(0);
  const entries = useAuditEntries(offset);
  if (entries.isPending) return <Spinner />;
  if (entries.isError) return <ErrorState error={entries.error} />;
  if (entries.data.items.length === 0) return <EmptyState icon={<History />} title="Aucune action enregistrée" />;
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
                Auteur
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Action
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Élément
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Changement
              </th>
            </tr>
          </thead>
          <tbody className={entries.isPlaceholderData ? 'divide-y opacity-60' : 'divide-y'}>
            {entries.data.items.map((entry) => (
              <tr key={entry.id}>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums">{dateTime.format(new Date(entry.createdAt))}</td>
                <td className="px-3 py-2">{entry.actorEmail ?? 'Système'}</td>
                <td className="px-3 py-2 font-mono text-xs">{entry.action}</td>
                <td className="px-3 py-2 text-muted-foreground">
                  {entry.entity}
                  {entry.entityId ? (
                    <span className="block max-w-40 truncate font-mono text-xs" title={entry.entityId}>
                      {entry.entityId}
                    </span>
                  ) : null}
                </td>
                <td className="max-w-md px-3 py-2 text-muted-foreground">{describeChange(entry.before, entry.after) || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        offset={offset}
        limit={AUDIT_PAGE_SIZE}
        total={entries.data.total}
        onChange={setOffset}
        label="Pages du journal d'audit"
      />
    </div>
  );
}
