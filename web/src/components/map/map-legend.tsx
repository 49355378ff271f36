import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** A legend entry: a swatch (as the markers draw it) and its meaning. */
export function LegendSwatch({ colour = '#1d4ed8', hollow = false, muted = false, square = false }: { colour?: string; hollow?: boolean; muted?: boolean; square?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn('inline-block size-3.5 shrink-0 border-[3px]', square ? 'rounded-sm' : 'rounded-full')}
      style={{ borderColor: muted ? '#9ca3af' : colour, background: hollow ? '#ffffff' : muted ? '#d1d5db' : colour }}
    />
  );
}

/** The legend under a map (outside it, so it never hides markers on a phone). */
export function MapLegend({ items, className, title = 'Légende' }: { items: { key: string; swatch: ReactNode; label: ReactNode }[]; className?: string; title?: string }) {
  return (
    <div className={cn('text-sm', className)}>
      <p className="sr-only">{title}</p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1.5" aria-label={title}>
        {items.map((item) => (
          <li key={item.key} className="flex min-w-0 items-center gap-1.5">
            {item.swatch}
            <span className="min-w-0 truncate">{item.label}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
