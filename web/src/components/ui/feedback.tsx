import * as React from 'react';
import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/error-message';

export function Spinner({ className, label = 'Chargement...' }: { className?: string; label?: string }) {
  return (
    <div role="status" className={cn('flex items-center justify-center gap-2 py-10 text-muted-foreground', className)}>
      <Loader2 className="size-5 animate-spin" aria-hidden="true" />
      <span className="text-sm">{label}</span>
    </div>
  );
}

export function EmptyState({ icon, title, children, className }: { icon?: React.ReactNode; title: string; children?: React.ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-col items-center gap-2 rounded-lg border border-dashed bg-card px-6 py-10 text-center', className)}>
      {icon ? <div className="text-muted-foreground [&_svg]:size-8">{icon}</div> : null}
      <p className="font-medium">{title}</p>
      {children ? <div className="text-sm text-muted-foreground">{children}</div> : null}
    </div>
  );
}

/** A failed read: the server's French message (errorMessage), or what the screen knows better (`children`). */
export function ErrorState({ error, className, children }: { error: unknown; className?: string; children?: React.ReactNode }) {
  return (
    <div role="alert" className={cn('rounded-lg border border-destructive/30 bg-primary-soft px-4 py-3 text-sm text-destructive', className)}>
      {children ?? errorMessage(error)}
    </div>
  );
}

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-muted', className)} />;
}
