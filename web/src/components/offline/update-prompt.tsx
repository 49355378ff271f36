import { useEffect, useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';

/**
 * Registers the service worker once the technician area has shown (its code, workbox-window, is not part of the first
 * load), and offers « Nouvelle version disponible » with « Recharger » when a new build is waiting (registerType
 * 'prompt': a page never changes code under the technician's thumb).
 */
export function UpdatePrompt() {
  const [update, setUpdate] = useState<((reload?: boolean) => Promise<void>) | null>(null);
  useEffect(() => {
    if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
    let cancelled = false;
    void import('virtual:pwa-register').then(({ registerSW }) => {
      if (cancelled) return;
      const updateSW = registerSW({
        onNeedRefresh: () => setUpdate(() => updateSW),
      });
    });
    return () => {
      cancelled = true;
    };
  }, []);
  if (!update) return null;
  return (
    <div role="alert" className="fixed inset-x-3 top-3 z-50 mx-auto flex max-w-md items-center gap-3 rounded-lg border bg-card px-4 py-3 shadow-lg">
      <RefreshCw className="size-5 shrink-0 text-primary" aria-hidden="true" />
      <p className="flex-1 text-sm font-medium">Nouvelle version disponible</p>
      <Button size="sm" onClick={() => void update(true)}>
        Recharger
      </Button>
    </div>
  );
}
