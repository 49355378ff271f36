import { cn } from '@/lib/cn';
import { formatCount } from '@maillon/common/format';

export interface PillOption<T extends string> {
  value: T;
  label: string;
  count?: number | undefined;
}

/** Filter pills (status sub-tabs): a radio group, keyboard friendly. */
export function Pills<T extends string>({
  options,
  value,
  onChange,
  label,
  className,
}: {
  options: readonly PillOption<T>[];
  value: T;
  onChange: (value: T) => void;
  label: string;
  className?: string;
}) {
  return (
    <div role="radiogroup" aria-label={label} className={cn('flex gap-2 overflow-x-auto pb-1', className)}>
      {options.map((option) => {
        const active = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={active}
            onClick={() => onChange(option.value)}
            className={cn(
              'inline-flex h-9 shrink-0 items-center gap-2 rounded-full border px-4 text-sm font-medium transition-colors',
              active ? 'border-primary bg-primary text-primary-foreground' : 'bg-card hover:bg-muted',
            )}
          >
            {option.label}
            {option.count !== undefined ? (
              <span className={cn('rounded-full px-1.5 text-xs', active ? 'bg-white/20' : 'bg-muted')}>{formatCount(option.count)}</span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
