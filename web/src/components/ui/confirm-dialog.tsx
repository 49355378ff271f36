import * as React from 'react';
import { useOpenedOnce } from '@/hooks/use-opened-once';

const loadContent = () => import('./confirm-dialog-content');
const ConfirmDialogContent = React.lazy(() => loadContent().then((m) => ({ default: m.ConfirmDialogContent })));

type TriggerProps = React.HTMLAttributes<HTMLElement> & { type?: string };

interface ConfirmDialogProps {
  trigger: React.ReactElement<TriggerProps>;
  title: string;
  description?: React.ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  onConfirm: () => void | Promise<unknown>;
}

/**
 * Asks before anything destructive; the action runs only on explicit confirmation. The trigger is part of the screen;
 * the dialog (Radix, focus trap, scroll lock) loads when the pointer or the focus reaches the trigger, or on its first
 * click (decision 017).
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel = 'Confirmer',
  cancelLabel = 'Annuler',
  destructive = true,
  onConfirm,
}: ConfirmDialogProps) {
  const [open, setOpen] = React.useState(false);
  const mounted = useOpenedOnce(open);
  const triggerElement = React.useRef<HTMLElement | null>(null);
  const preload = () => void loadContent().catch(() => undefined);
  const props = trigger.props;
  return (
    <>
      {React.cloneElement(trigger, {
        // What Radix's trigger set: a button that does not submit, and the dialog's state for assistive technologies.
        type: props.type ?? 'button',
        'aria-haspopup': 'dialog',
        'aria-expanded': open,
        'data-state': open ? 'open' : 'closed',
        onPointerEnter: (event: React.PointerEvent<HTMLElement>) => {
          props.onPointerEnter?.(event);
          preload();
        },
        onFocus: (event: React.FocusEvent<HTMLElement>) => {
          props.onFocus?.(event);
          preload();
        },
        onClick: (event: React.MouseEvent<HTMLElement>) => {
          props.onClick?.(event);
          if (event.defaultPrevented) return;
          triggerElement.current = event.currentTarget;
          setOpen(true);
        },
      } as TriggerProps)}
      {mounted ? (
        <React.Suspense fallback={null}>
          <ConfirmDialogContent
            open={open}
            onOpenChange={setOpen}
            returnFocusTo={triggerElement}
            title={title}
            description={description}
            confirmLabel={confirmLabel}
            cancelLabel={cancelLabel}
            destructive={destructive}
            onConfirm={onConfirm}
          />
        </React.Suspense>
      ) : null}
    </>
  );
}
