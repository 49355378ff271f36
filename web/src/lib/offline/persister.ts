import { createStore, del, get, set } from 'idb-keyval';
import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { isQueueMutation } from './queue';
import { refusalOf } from './queued-request';

/** Bump when the saved shape changes: older saves are then dropped (the queue with them, so only for a good reason). */
const FORMAT = 1;
/** Reads older than this are not shown again (the queue is kept whatever its age). */
const QUERIES_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Cached reads are saved at most once a second; a change to the queue is saved at once. */
const QUERY_SAVE_DELAY_MS = 1000;

interface SavedState {
  format: number;
  userId: string;
  savedAt: number;
  state: DehydratedState;
}

let store: ReturnType<typeof createStore> | undefined;
const offlineStore = () => (store ??= createStore('maillon-offline', 'accounts'));

function isSessionQuery(query: Query): boolean {
  return query.queryKey[0] === queryKeys.me[0] && query.queryKey[1] === queryKeys.me[1];
}

/**
 * What is kept: every successful read except the session (always asked to the server), and the queue: changes not
 * yet delivered (saved as paused, so a reload sends them again) and refused ones (their reason as plain data).
 */
export function snapshotOf(client: QueryClient): DehydratedState {
  const state = dehydrate(client, {
    shouldDehydrateQuery: (query) => query.state.status === 'success' && !isSessionQuery(query) && query.meta?.persist !== false,
    shouldDehydrateMutation: (mutation) => isQueueMutation(mutation) && (mutation.state.status === 'pending' || mutation.state.status === 'error'),
  });
  return {
    ...state,
    mutations: state.mutations.map((mutation) => ({
      ...mutation,
      state: {
        ...mutation.state,
        isPaused: mutation.state.status === 'pending' ? true : mutation.state.isPaused,
        error: mutation.state.error ? refusalOf(mutation.state.error) : null,
        failureReason: null,
      },
    })),
  };
}

/** Puts this account's saved reads and queue back into the cache; false when there was nothing to restore. */
export async function restoreQueryClient(client: QueryClient, userId: string): Promise<boolean> {
  let saved: SavedState | undefined;
  try {
    saved = await get<SavedState>(userId, offlineStore());
  } catch {
    return false; // IndexedDB unavailable (private mode): online only
  }
  if (!saved || saved.format !== FORMAT || saved.userId !== userId) return false;
  const fresh = Date.now() - saved.savedAt <= QUERIES_MAX_AGE_MS;
  hydrate(client, fresh ? saved.state : { ...saved.state, queries: [] });
  return true;
}

/** Saves the cache for this account on every change (reads throttled, queue at once); stop() saves what is left. */
export function persistQueryClient(client: QueryClient, userId: string): () => Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const save = () => {
    timer = undefined;
    if (stopped) return;
    const value: SavedState = { format: FORMAT, userId, savedAt: Date.now(), state: snapshotOf(client) };
    writing = writing.then(() => set(userId, value, offlineStore())).catch(() => undefined);
  };
  const schedule = (delay: number) => {
    if (timer !== undefined && delay > 0) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(save, delay);
  };
  const flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    save();
  };
  const stopQueries = client.getQueryCache().subscribe((event) => {
    if (event.type === 'removed' || (event.type === 'updated' && event.action.type === 'success')) schedule(QUERY_SAVE_DELAY_MS);
  });
  const stopMutations = client.getMutationCache().subscribe((event) => {
    if (event.mutation && isQueueMutation(event.mutation)) schedule(0);
  });
  const onHide = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onHide);
  return async () => {
    flush();
    stopped = true;
    stopQueries();
    stopMutations();
    window.removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', onHide);
    await writing;
  };
}

/** Logout: this account's saved reads and queue leave the phone. */
export async function clearPersistedState(userId: string): Promise<void> {
  try {
    await del(userId, offlineStore());
  } catch {
    // Nothing was saved.
  }
}
