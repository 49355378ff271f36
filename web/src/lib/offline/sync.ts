import { onlineManager, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { isQueueMutation, queueMutations } from './queue';

/**
 * Follows the queue: a delivered change leaves it; the reads it touched are refreshed once nothing else is waiting (so
 * a refreshed screen never drops a change still on its way); a refused change stays, with the server's reason, until
 * the technician dismisses it, and its reads are refreshed at once (the screen shows the server's state again).
 */
export function startSync(client: QueryClient, technicianId: string | null): () => void {
  const touched = new Map<string, QueryKey>();
  const refresh = (keys: readonly QueryKey[]) => {
    for (const key of keys) void client.invalidateQueries({ queryKey: key });
  };
  const countsKey = technicianId ? [queryKeys.technicianCounts(technicianId)] : [];
  // Offline, the page opened on the session this browser last confirmed: the server checks it again once it is back.
  const stopOnline = onlineManager.subscribe((online) => {
    if (online) void client.invalidateQueries({ queryKey: queryKeys.me });
  });
  const stopMutations = client.getMutationCache().subscribe((event) => {
    const mutation = event.mutation;
    if (event.type !== 'updated' || !mutation || !isQueueMutation(mutation)) return;
    const request = mutation.state.variables;
    if (!request) return;
    if (event.action.type === 'success') {
      for (const key of request.invalidate) touched.set(JSON.stringify(key), key);
      if (queueMutations(client).some((m) => m.state.status === 'pending')) return;
      // Delivered changes stay (screens keep showing them) until the reads they touched have been asked again.
      const keys = [...touched.values(), ...countsKey];
      touched.clear();
      void Promise.all(keys.map((key) => client.invalidateQueries({ queryKey: key }))).finally(() => {
        for (const delivered of queueMutations(client)) if (delivered.state.status === 'success') client.getMutationCache().remove(delivered);
      });
    } else if (event.action.type === 'error') {
      refresh([...request.invalidate, ...countsKey]);
    }
  });
  return () => {
    stopOnline();
    stopMutations();
  };
}
