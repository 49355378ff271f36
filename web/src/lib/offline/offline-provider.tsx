import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { IsRestoringProvider, onlineManager, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

interface OfflineAccount {
  userId: string;
}
const OfflineContext = createContext<OfflineAccount | null>(null);

/** The signed-in account whose changes the queue keeps (null outside the technician area). */
export function useOfflineAccount(): OfflineAccount | null {
  return useContext(OfflineContext);
}

/** The queue's key (queue.ts holds the rest; it loads with the first screen that makes a change). */
const QUEUE_KEY = 'offline-queue';

/** How many changes wait for the network (read at a click, e.g. before logging out). */
export function countWaitingChanges(client: QueryClient): number {
  return client
    .getMutationCache()
    .getAll()
    .filter((mutation) => mutation.options.mutationKey?.[0] === QUEUE_KEY && mutation.state.status === 'pending').length;
}

/** The account whose data this page's cache holds (restored, saved and synced), once per page and account. */
let opened: { userId: string; ready: boolean; promise: Promise<void>; stop: () => Promise<unknown> } | null = null;

const isSession = (key: readonly unknown[]) => key[0] === queryKeys.me[0] && key[1] === queryKeys.me[1];

function openAccount(client: QueryClient, userId: string, technicianId: string | null, keep: readonly QueryKey[]): Promise<void> {
  if (opened?.userId === userId) return opened.promise;
  if (opened) {
    // Another account signed in on this page: the previous one's reads and queue stay in its own IndexedDB entry.
    void opened.stop();
    client.getMutationCache().clear();
    client.removeQueries({ predicate: (query) => !isSession(query.queryKey) });
  }
  const stops: (() => unknown)[] = [];
  const account = { userId, ready: false, promise: Promise.resolve(), stop: () => Promise.all(stops.map((stop) => stop())) };
  account.promise = (async () => {
    // The browser's word on the network, read once (TanStack Query otherwise assumes online until an event).
    onlineManager.setOnline(navigator.onLine);
    // The queue, the sync, IndexedDB and (de)hydration in chunks of their own, asked for once the dashboard has shown
    // (decision 017's budgets). The queue's function is registered before the saved queue is read back.
    const [{ registerQueue }, { startSync }, { persistQueryClient, restoreQueryClient }] = await Promise.all([
      import('./queue'),
      import('./sync'),
      import('./persister'),
    ]);
    registerQueue(client);
    // What the field needs is never dropped from memory, so never from the phone (before restoring: restored reads get it).
    for (const key of keep) client.setQueryDefaults(key, { gcTime: Infinity });
    await restoreQueryClient(client, userId);
    if (opened !== account) return;
    // Restored reads show at once and are asked again (now, or when the network is back).
    void client.invalidateQueries({ predicate: (query) => !isSession(query.queryKey) }, { cancelRefetch: false });
    stops.push(persistQueryClient(client, userId), startSync(client, technicianId));
    account.ready = true;
    void client.resumePausedMutations();
  })().catch(() => {
    // A chunk could not load (network lost on a first visit): online only for now, tried again on the next mount.
    if (opened === account) opened = null;
  });
  opened = account;
  return account.promise;
}

/**
 * The technician area's offline layer (decision 023): restores the account's saved reads and queue from IndexedDB before
 * the screens read the cache, saves them as they change, and sends queued changes in order when the network is back.
 */
export function OfflineProvider({
  userId,
  technicianId,
  keep,
  children,
}: {
  userId: string;
  technicianId: string | null;
  /** Query key prefixes kept for as long as the account is signed in here (the field's data). */
  keep: readonly QueryKey[];
  children: ReactNode;
}) {
  const client = useQueryClient();
  const [ready, setReady] = useState(() => opened?.userId === userId && opened.ready);
  useEffect(() => {
    let cancelled = false;
    void openAccount(client, userId, technicianId, keep).finally(() => {
      if (!cancelled) setReady(true);
    });
    return () => {
      cancelled = true;
    };
    // keep is read once per account.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, userId, technicianId]);
  return (
    <OfflineContext.Provider value={{ userId }}>
      <IsRestoringProvider value={!ready}>{children}</IsRestoringProvider>
    </OfflineContext.Provider>
  );
}

/** Logout: stop saving, then remove this account's reads and queue from the phone. */
export async function clearOfflineData(client: QueryClient, userId: string): Promise<void> {
  const account = opened;
  opened = null;
  await account?.promise.catch(() => undefined);
  // The last save lands before the entry is removed.
  await account?.stop();
  client.getMutationCache().clear();
  const { clearPersistedState } = await import('./persister');
  await clearPersistedState(userId);
}

