import { ChevronLeft, ChevronRight } from 'lucide-react';
import { formatCount, formatTotal } from '@maillon/common/format';
import { cn } from '@/lib/cn';
import { Button } from './button';

/**
 * Previous / next for a server-paged list (limit/offset with X-Total-Count). `capped`: the server counted up to `total`
 * and there are more (a broad search, decision 042): the page count is « plus de … » and « Suivant » stays open.
 */
export function Pager({
  offset,
  limit,
  total,
  capped = false,
  onChange,
  label = 'Pagination',
  className,
}: {
  offset: number;
  limit: number;
  total: number;
  capped?: boolean;
  onChange: (offset: number) => void;
  label?: string;
  className?: string;
}) {
  if (total <= limit && !capped) return null;
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(total / limit));
  const last = !capped && offset + limit >= total;
  return (
    <nav aria-label={label} className={cn('flex items-center justify-center gap-3', className)}>
      <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        <ChevronLeft aria-hidden="true" /> Précédent
      </Button>
      <span className="text-sm tabular-nums text-muted-foreground">
        Page {formatCount(page)} sur {formatTotal(pages, capped)}
      </span>
      <Button variant="outline" size="sm" disabled={last} onClick={() => onChange(offset + limit)}>
        Suivant <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}
