import { useSyncExternalStore } from 'react';

function subscribe(callback: () => void) {
  window.addEventListener('online', callback);
  window.addEventListener('offline', callback);
  return () => {
    window.removeEventListener('online', callback);
    window.removeEventListener('offline', callback);
  };
}

/** The browser's word on the network, for actions that cannot wait for it (decision 023). */
export function useOnlineStatus(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}

/** The inline text under an action that needs the network. */
export const NEEDS_NETWORK = 'Connexion requise : disponible dès le retour du réseau';
