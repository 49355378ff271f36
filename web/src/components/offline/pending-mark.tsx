import { Clock } from 'lucide-react';
import { cn } from '@/lib/cn';

/** « en attente »: a change made on this phone that the server does not have yet (decision 023). */
export function PendingMark({ className, label = 'en attente' }: { className?: string; label?: string }) {
  return (
    <span className={cn('inline-flex shrink-0 items-center gap-1 text-xs font-medium text-warning', className)}>
      <Clock className="size-3.5" aria-hidden="true" />
      {label}
    </span>
  );
}

/** The inline text under an action that needs the network, shown while offline. */
export function NetworkRequired({ children = 'Connexion requise : disponible dès le retour du réseau', className }: { children?: string; className?: string }) {
  return <p className={cn('text-xs text-muted-foreground', className)}>{children}</p>;
}
