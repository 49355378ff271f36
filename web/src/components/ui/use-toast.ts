import * as React from 'react';
import { TOAST_DURATION_MS } from '@maillon/common/constants';
import { errorMessage } from '@/lib/error-message';

/** Spec §9: one toast at a time, 5 s, removed 1 000 000 ms after dismissal. */
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY = 1_000_000;

export interface ToastData {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: 'default' | 'destructive' | 'success';
  duration?: number;
  open: boolean;
}

type Listener = (toasts: ToastData[]) => void;
let memory: ToastData[] = [];
const listeners = new Set<Listener>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit() {
  for (const listener of listeners) listener(memory);
}

export function dismissToast(id?: string) {
  memory = memory.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t));
  for (const t of memory) {
    if (!t.open && !removeTimers.has(t.id)) {
      removeTimers.set(
        t.id,
        setTimeout(() => {
          removeTimers.delete(t.id);
          memory = memory.filter((x) => x.id !== t.id);
          emit();
        }, TOAST_REMOVE_DELAY),
      );
    }
  }
  emit();
}

export function toast(data: Omit<ToastData, 'id' | 'open'>): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  memory = [{ duration: TOAST_DURATION_MS, ...data, id, open: true }, ...memory].slice(0, TOAST_LIMIT);
  emit();
  return id;
}

export function useToasts(): ToastData[] {
  const [toasts, setToasts] = React.useState(memory);
  React.useEffect(() => {
    listeners.add(setToasts);
    return () => {
      listeners.delete(setToasts);
    };
  }, []);
  return toasts;
}

/** Shows the error's message: the server's French message when the API gave one (errorMessage). */
export function toastError(title: string, error: unknown, fallback = 'Une erreur est survenue') {
  toast({ title, description: errorMessage(error, fallback), variant: 'destructive' });
}
