import { useState, type ReactNode } from 'react';
import { Info, X } from 'lucide-react';
import { STORAGE_PREFIX } from '@maillon/common/constants';
import { Button } from './button';

function readDismissed(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

/** An information note the user can close for good (remembered in local storage under the product prefix). */
export function DismissibleNotice({ storageKey, children }: { storageKey: string; children: ReactNode }) {
  const key = `${STORAGE_PREFIX}${storageKey}`;
  const [dismissed, setDismissed] = useState(() => readDismissed(key));
  if (dismissed) return null;
  const dismiss = () => {
    setDismissed(true);
    try {
      localStorage.setItem(key, '1');
    } catch {
      // Private mode: hidden for this visit only.
    }
  };
  return (
    <div role="note" className="mb-4 flex items-start gap-3 rounded-lg border border-info/20 bg-info-soft p-3 text-sm">
      <Info className="mt-0.5 size-4 shrink-0 text-info" aria-hidden="true" />
      <p className="min-w-0 flex-1">{children}</p>
      <Button variant="ghost" size="icon" className="-my-2 -mr-2 shrink-0" aria-label="Fermer l’information" onClick={dismiss}>
        <X aria-hidden="true" />
      </Button>
    </div>
  );
}
