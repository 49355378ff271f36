import { useEffect, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Check, ChevronDown, X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { inputClass } from './recipes';

interface ComboboxProps<T> {
  /** Given by the surrounding Field, with aria-invalid and aria-describedby: the label points at the input. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** The suggestions for the current query (the caller searches, usually on the server). */
  options: readonly T[];
  optionKey: (option: T) => string;
  optionLabel: (option: T) => string;
  /** A second, muted line under an option's label (what tells two options of the same label apart). */
  optionDetail?: (option: T) => string | null;
  /** The chosen option, shown in the input while the user is not typing; null shows the placeholder. */
  selected: T | null;
  onSelect: (option: T | null) => void;
  /** The text typed since the last choice ('' when the list opens without typing): what to search. */
  onQueryChange: (query: string) => void;
  onOpenChange?: (open: boolean) => void;
  /** The accessible name of the list of suggestions. */
  listLabel: string;
  /** The aria-label of the button that clears the choice. */
  clearLabel: string;
  placeholder?: string;
  loading?: boolean;
  loadingText?: ReactNode;
  /** Shown when the search found nothing. */
  emptyText: ReactNode;
  /** A line under the suggestions (e.g. « précisez la recherche » when the server sent its maximum). */
  footer?: ReactNode;
  disabled?: boolean;
  className?: string;
}

/**
 * A text input with a list of suggestions: the WAI-ARIA 1.2 combobox with list autocomplete and manual selection
 * (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/). The focus stays in the input; the option under the arrow keys is
 * announced through aria-activedescendant. ArrowDown / ArrowUp open the list and move (wrapping), Home / End jump to the
 * first / last option once one is highlighted (before that they move the caret), Enter chooses, Escape closes the list
 * and, pressed again, clears the choice. Leaving the field without choosing puts the chosen option's label back.
 */
export function Combobox<T>({
  id,
  'aria-invalid': ariaInvalid,
  'aria-describedby': ariaDescribedBy,
  options,
  optionKey,
  optionLabel,
  optionDetail,
  selected,
  onSelect,
  onQueryChange,
  onOpenChange,
  listLabel,
  clearLabel,
  placeholder,
  loading = false,
  loadingText = 'Recherche…',
  emptyText,
  footer,
  disabled = false,
  className,
}: ComboboxProps<T>) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const listboxId = `${inputId}-listbox`;
  const optionId = (index: number) => `${listboxId}-${index}`;
  const [open, setOpenState] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  // What the user typed since the last choice; null shows the chosen option's label.
  const [typed, setTyped] = useState<string | null>(null);
  const active = open && activeIndex < options.length ? activeIndex : -1;
  const text = typed ?? (selected ? optionLabel(selected) : '');
  const selectedKey = selected ? optionKey(selected) : null;

  useEffect(() => {
    // scrollIntoView is absent from jsdom.
    if (active >= 0) document.getElementById(`${listboxId}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, listboxId]);

  const setOpen = (next: boolean) => {
    if (next === open) return;
    setOpenState(next);
    onOpenChange?.(next);
  };

  const openList = (index: number) => {
    // Opened without typing: every option, not only those matching the chosen label.
    if (!open && typed === null) onQueryChange('');
    setOpen(true);
    setActiveIndex(index);
  };

  const close = () => {
    setOpen(false);
    setActiveIndex(-1);
  };

  const choose = (option: T) => {
    onSelect(option);
    setTyped(null);
    onQueryChange('');
    close();
  };

  const clear = () => {
    if (selected) onSelect(null);
    setTyped(null);
    onQueryChange('');
    close();
  };

  const selectedIndex = selectedKey === null ? -1 : options.findIndex((option) => optionKey(option) === selectedKey);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) openList(selectedIndex >= 0 ? selectedIndex : 0);
        else setActiveIndex(last < 0 ? -1 : active >= last ? 0 : active + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) openList(selectedIndex >= 0 ? selectedIndex : last);
        else setActiveIndex(last < 0 ? -1 : active <= 0 ? last : active - 1);
        break;
      case 'Home':
      case 'End':
        if (active < 0 || last < 0) break;
        event.preventDefault();
        setActiveIndex(event.key === 'Home' ? 0 : last);
        break;
      case 'Enter':
        if (!open) break;
        // Never submits the surrounding form while the list is open.
        event.preventDefault();
        if (active >= 0) choose(options[active]!);
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          close();
        } else if (text !== '') {
          event.preventDefault();
          event.stopPropagation();
          clear();
        }
        break;
    }
  };

  // Announced in the status line: the search running, or nothing found; the footer only under found options.
  const status = open && options.length === 0 ? (loading ? loadingText : emptyText) : null;
  const note = open && options.length > 0 && !loading ? footer : null;
  return (
    <div className={cn('relative', className)}>
      <input
        id={inputId}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listboxId}
        aria-activedescendant={active >= 0 ? optionId(active) : undefined}
        aria-invalid={ariaInvalid}
        aria-describedby={ariaDescribedBy}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={placeholder}
        value={text}
        className={cn(inputClass, 'pr-9 text-ellipsis')}
        onChange={(event) => {
          setTyped(event.target.value);
          onQueryChange(event.target.value);
          setOpen(true);
          setActiveIndex(-1);
        }}
        onClick={() => {
          if (!open) openList(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setTyped(null);
          close();
        }}
      />
      {text !== '' && !disabled ? (
        <button
          type="button"
          aria-label={clearLabel}
          className="absolute inset-y-0 right-0 flex w-9 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
          // Keeps the focus in the input (its blur would close the list first).
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            clear();
            document.getElementById(inputId)?.focus();
          }}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      ) : (
        <ChevronDown className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      )}
      <div
        hidden={!open}
        className="absolute inset-x-0 top-full z-50 mt-1 overflow-hidden rounded-md border bg-card text-sm shadow-lg"
        // A click in the list keeps the focus in the input: the choice is made on click, the list stays open until then.
        onMouseDown={(event) => event.preventDefault()}
      >
        <ul
          id={listboxId}
          role="listbox"
          aria-label={listLabel}
          aria-busy={loading || undefined}
          className={cn('max-h-72 overflow-y-auto p-1', options.length === 0 && 'hidden', loading && 'opacity-60')}
        >
          {options.map((option, index) => {
            const key = optionKey(option);
            const isActive = index === active;
            const detail = optionDetail?.(option);
            return (
              <li
                key={key}
                id={optionId(index)}
                role="option"
                aria-selected={isActive}
                // The detail describes the option (hidden from its name, which stays the label's text).
                aria-describedby={detail ? `${optionId(index)}-detail` : undefined}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-sm px-2 py-2 hover:bg-muted',
                  isActive && 'bg-primary-soft outline-2 -outline-offset-2 outline-ring hover:bg-primary-soft',
                )}
                onClick={() => choose(option)}
              >
                <Check className={cn('size-4 shrink-0 text-primary', key !== selectedKey && 'invisible')} aria-hidden="true" />
                <span className="min-w-0">
                  <span className="block truncate">{optionLabel(option)}</span>
                  {detail ? (
                    <span id={`${optionId(index)}-detail`} aria-hidden="true" className="block truncate text-xs text-muted-foreground">
                      {detail}
                    </span>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
        <p role="status" className={cn('px-3 py-2 text-muted-foreground', status === null && 'hidden')}>
          {status}
        </p>
        {note ? <p className="border-t px-3 py-2 text-xs text-muted-foreground">{note}</p> : null}
      </div>
    </div>
  );
}
