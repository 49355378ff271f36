import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { useToasts } from './use-toast';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

let regionRequested = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The dashboards show the toast region (F8) from the start, as every page did before decision 013. */
export function useToastRegion(): void {
  useEffect(() => {
    if (regionRequested) return;
    regionRequested = true;
    for (const listener of listeners) listener();
  }, []);
}

/**
 * The Radix toast region loads with the first toast (or a dashboard) and then stays mounted: public pages show a
 * toast only after a submit, so they don't carry it in their first download.
 */
export function ToastOutlet() {
  const toasts = useToasts();
  const requested = useSyncExternalStore(subscribe, () => regionRequested);
  const [hadToast, setHadToast] = useState(false);
  if (toasts.length > 0 && !hadToast) setHadToast(true);
  if (!requested && !hadToast) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
