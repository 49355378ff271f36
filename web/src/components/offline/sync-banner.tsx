import { useEffect, useState, type ReactNode } from 'react';
import { CheckCircle2, CloudOff, RefreshCw, TriangleAlert, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { useOnline, usePendingChanges, useRefusedChanges } from '@/lib/offline/use-queue';

const SYNCED_VISIBLE_MS = 3500;
const madeAt = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const FADE_MS = 600;

function changes(count: number): string {
  if (count === 0) return 'aucune modification en attente';
  return count === 1 ? '1 modification en attente' : `${count} modifications en attente`;
}

/**
 * The queue's state, discreet (decision 023): « Hors ligne — N modifications en attente », « Synchronisation… », then
 * « Tout est synchronisé », which fades. Under the top bar on phones, at the top right on a desktop (toasts are at the bottom).
 */
export function SyncStatus() {
  const online = useOnline();
  const pending = usePendingChanges().length;
  const [dirty, setDirty] = useState(!online || pending > 0);
  const [synced, setSynced] = useState<'hidden' | 'shown' | 'fading'>('hidden');
  if ((!online || pending > 0) && !dirty) setDirty(true);
  if (online && pending === 0 && dirty) {
    setDirty(false);
    setSynced('shown');
  }
  useEffect(() => {
    if (synced === 'hidden') return;
    const timer = setTimeout(() => setSynced(synced === 'shown' ? 'fading' : 'hidden'), synced === 'shown' ? SYNCED_VISIBLE_MS : FADE_MS);
    return () => clearTimeout(timer);
  }, [synced]);

  let content: ReactNode = null;
  let tone = '';
  if (!online) {
    tone = 'border-warning/30 bg-warning-soft text-warning';
    content = (
      <>
        <CloudOff aria-hidden="true" />
        Hors ligne — {changes(pending)}
      </>
    );
  } else if (pending > 0) {
    tone = 'border-info/30 bg-info-soft text-info';
    content = (
      <>
        <RefreshCw className="motion-safe:animate-spin" aria-hidden="true" />
        Synchronisation… ({changes(pending)})
      </>
    );
  } else if (synced !== 'hidden') {
    tone = cn('border-success/30 bg-success-soft text-success transition-opacity', synced === 'fading' && 'opacity-0');
    content = (
      <>
        <CheckCircle2 aria-hidden="true" />
        Tout est synchronisé
      </>
    );
  }
  return (
    <div
      role="status"
      className="pointer-events-none fixed inset-x-0 top-16 z-40 flex justify-center px-3 lg:inset-x-auto lg:right-6 lg:top-4"
      style={{ transitionDuration: `${FADE_MS}ms` }}
    >
      {content ? (
        <p className={cn('flex items-center gap-2 rounded-full border px-3 py-1.5 text-sm font-medium shadow-sm [&_svg]:size-4', tone)} style={{ transitionDuration: `${FADE_MS}ms` }}>
          {content}
        </p>
      ) : null}
    </div>
  );
}

/** « Modifications refusées »: each change the server refused, with its French reason, until dismissed. */
export function RefusedChanges() {
  const { refused, dismiss } = useRefusedChanges();
  if (refused.length === 0) return null;
  return (
    <section aria-labelledby="refused-changes-title" className="mb-4 grid gap-2 rounded-lg border border-primary/30 bg-primary-soft/40 p-3">
      <h2 id="refused-changes-title" className="flex items-center gap-2 text-sm font-semibold text-primary">
        <TriangleAlert className="size-4" aria-hidden="true" />
        Modifications refusées
      </h2>
      <p className="text-xs text-muted-foreground">Le serveur n’a pas accepté ces modifications : elles n’ont pas été enregistrées.</p>
      <ul className="grid gap-2">
        {refused.map((change) => (
          <li key={change.key} className="flex items-start gap-2 rounded-md border bg-card px-3 py-2 text-sm">
            <div className="grid min-w-0 flex-1 gap-0.5">
              <p className="break-words font-medium">{change.label}</p>
              <p className="break-words text-muted-foreground">{change.refusal.message}</p>
              <p className="text-xs text-muted-foreground">Faite le {madeAt.format(change.queuedAt)}</p>
            </div>
            <Button variant="ghost" size="icon" aria-label={`Ignorer : ${change.label}`} onClick={() => dismiss(change.key)}>
              <X aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Both, as one lazy chunk: the dashboard asks for it once it has shown (it shows nothing most of the time). */
export default function OfflineStatus() {
  return (
    <>
      <RefusedChanges />
      <SyncStatus />
    </>
  );
}
