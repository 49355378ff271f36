import type { ReactNode } from 'react';
import { CheckCircle2, ChevronDown, CircleAlert } from 'lucide-react';
import { cn } from '@/lib/cn';

/**
 * A section of the report that collapses (native details/summary: keyboard and screen readers for free), with a
 * summary line big enough for a thumb, and a mark saying whether it is complete or needs attention.
 */
export function ReportSection({
  id,
  title,
  summary,
  state,
  defaultOpen = true,
  children,
}: {
  id: string;
  title: string;
  summary?: ReactNode;
  state: 'done' | 'todo' | 'error' | 'optional';
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  return (
    <details id={id} open={defaultOpen} className="group rounded-lg border bg-card shadow-xs">
      <summary className="flex min-h-14 cursor-pointer list-none items-center gap-3 px-4 py-3 [&::-webkit-details-marker]:hidden">
        {state === 'done' ? (
          <CheckCircle2 className="size-5 shrink-0 text-success" aria-label="Complet" />
        ) : state === 'error' ? (
          <CircleAlert className="size-5 shrink-0 text-destructive" aria-label="À corriger" />
        ) : (
          <span className={cn('size-5 shrink-0 rounded-full border-2', state === 'todo' ? 'border-warning' : 'border-input')} aria-hidden="true" />
        )}
        <span className="min-w-0 flex-1">
          <span className="block font-semibold leading-tight">{title}</span>
          {summary ? <span className="block truncate text-sm text-muted-foreground">{summary}</span> : null}
        </span>
        <ChevronDown className="size-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" aria-hidden="true" />
      </summary>
      <div className="grid gap-4 border-t px-4 py-4">{children}</div>
    </details>
  );
}

/** A row of big choice buttons (a radio group): the outcome, OK / À signaler / N.A., Oui / Non. */
export function ChoiceGroup<T extends string>({
  label,
  labelId,
  options,
  value,
  onChange,
  disabled,
  columns = 3,
  error,
}: {
  label: string;
  labelId: string;
  options: readonly { value: T; label: string; tone?: 'success' | 'warning' | 'danger' | 'neutral' }[];
  value: T | null;
  onChange: (value: T) => void;
  disabled?: boolean;
  columns?: 1 | 2 | 3;
  error?: string | undefined;
}) {
  const tones = {
    success: 'border-success bg-success text-white',
    warning: 'border-warning bg-warning text-white',
    danger: 'border-destructive bg-destructive text-white',
    neutral: 'border-foreground bg-foreground text-background',
  } as const;
  return (
    <div className="grid gap-1.5">
      <span id={labelId} className="text-sm font-medium">
        {label}
      </span>
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        aria-invalid={error ? true : undefined}
        className={cn('grid gap-2', columns === 1 ? 'grid-cols-1' : columns === 2 ? 'grid-cols-2' : 'grid-cols-3')}
      >
        {options.map((option) => {
          const active = option.value === value;
          return (
            <button
              key={option.value}
              type="button"
              role="radio"
              aria-checked={active}
              disabled={disabled}
              onClick={() => onChange(option.value)}
              className={cn(
                'min-h-12 rounded-md border px-2 py-2 text-sm font-medium leading-tight transition-colors disabled:opacity-60',
                active ? tones[option.tone ?? 'neutral'] : 'bg-background hover:bg-muted',
              )}
            >
              {option.label}
            </button>
          );
        })}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
