import { useState } from 'react';
import { History } from 'lucide-react';
import type { AuditEntry } from '@maillon/common/schemas/settings';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/feedback';
import { PagedTable, type PagedTableColumn } from '@/components/ui/paged-table';
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

const columns: PagedTableColumn<AuditEntry>[] = [
  { header: 'Date', cellClassName: 'whitespace-nowrap tabular-nums', cell: (entry) => dateTime.format(new Date(entry.createdAt)) },
  { header: 'Auteur', cell: (entry) => entry.actorEmail ?? 'Système' },
  { header: 'Action', cellClassName: 'font-mono text-xs', cell: (entry) => entry.action },
  {
    header: 'Élément',
    cellClassName: 'text-muted-foreground',
    cell: (entry) => (
      <>
        {entry.entity}
        {entry.entityId ? (
          <span className="block max-w-40 truncate font-mono text-xs" title={entry.entityId}>
            {entry.entityId}
          </span>
        ) : null}
      </>
    ),
  },
  { header: 'Changement', cellClassName: 'max-w-md text-muted-foreground', cell: (entry) => describeChange(entry.before, entry.after) || '—' },
];

/** Who did each sensitive action, when, with the state before and after (append-only on the server). */
export function AuditTrail() {
  const [offset, setOffset] = useState(0);
  const entries = useAuditEntries(offset);
  if (entries.isPending) return <Spinner />;
  if (entries.isError) return <ErrorState error={entries.error} />;
  if (entries.data.items.length === 0) return <EmptyState icon={<History />} title="Aucune action enregistrée" />;
  return (
    <PagedTable
      columns={columns}
      rows={entries.data.items}
      rowKey={(entry) => entry.id}
      dimmed={entries.isPlaceholderData}
      offset={offset}
      limit={AUDIT_PAGE_SIZE}
      total={entries.data.total}
      onOffsetChange={setOffset}
      pagerLabel="Pages du journal d'audit"
    />
  );
}
