import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '@/lib/cn';
import { Button } from './button';

/** Previous / next for a server-paged list (limit/offset with X-Total-Count). */
export function Pager({
  offset,
  limit,
  total,
  onChange,
  label = 'Pagination',
  className,
}: {
  offset: number;
  limit: number;
  total: number;
  onChange: (offset: number) => void;
  label?: string;
  className?: string;
}) {
  if (total <= limit) return null;
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav aria-label={label} className={cn('flex items-center justify-center gap-3', className)}>
      <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        <ChevronLeft aria-hidden="true" /> Précédent
      </Button>
      <span className="text-sm tabular-nums text-muted-foreground">
        Page {page} sur {pages}
      </span>
      <Button variant="outline" size="sm" disabled={offset + limit >= total} onClick={() => onChange(offset + limit)}>
        Suivant <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}
