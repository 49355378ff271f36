import { MutationObserver, type Mutation, type QueryClient } from '@tanstack/react-query';
import { newIdempotencyKey } from './idempotency-key';
import { isTransientFailure, sendQueuedRequest, type QueuedRequest } from './queued-request';

/** Every queued change is one TanStack Query mutation under this key, with the request as its variables. */
export const QUEUE_MUTATION_KEY = ['offline-queue'] as const;
const RETRY_MAX_DELAY_MS = 30_000;

export type QueueMutation = Mutation<unknown, Error, QueuedRequest>;

/** What a feature declares for one change: the request and how to show it; the queue adds key, account and time. */
export type QueuedRequestSpec = Omit<QueuedRequest, 'key' | 'userId' | 'queuedAt'>;

export function isQueueMutation(mutation: { options: { mutationKey?: readonly unknown[] } }): boolean {
  return mutation.options.mutationKey?.[0] === QUEUE_MUTATION_KEY[0];
}

/**
 * The queue's mutation function and policy, registered by key before the saved queue is read back: a restored
 * mutation has no function of its own (functions are not saved), TanStack Query finds it here by its key.
 * Transient failures are retried for ever (paused while offline), refusals are final.
 */
export function registerQueue(client: QueryClient): void {
  client.setMutationDefaults(QUEUE_MUTATION_KEY, {
    mutationFn: (request: QueuedRequest) => sendQueuedRequest(request),
    retry: (_failureCount, error) => isTransientFailure(error),
    retryDelay: (failureCount) => Math.min(1000 * 2 ** failureCount, RETRY_MAX_DELAY_MS),
    networkMode: 'online',
    // Delivered changes are removed by the sync (sync.ts); refused ones stay until dismissed.
    gcTime: Infinity,
  });
}

export function queueMutations(client: QueryClient): QueueMutation[] {
  return client.getMutationCache().getAll().filter(isQueueMutation) as unknown as QueueMutation[];
}

/**
 * Sends a change now, or keeps it until the network is back. The promise settles when the server has answered:
 * delivered (resolves) or refused (rejects); it may never settle in this page's lifetime (the change then goes on
 * from IndexedDB after a reload).
 */
export function enqueueRequest(client: QueryClient, userId: string, spec: QueuedRequestSpec): Promise<unknown> {
  const dropped = new Set([...(spec.replaces ? [spec.replaces] : []), ...(spec.supersedes ?? [])]);
  if (dropped.size > 0) {
    for (const mutation of queueMutations(client)) {
      const waiting = mutation.state.status === 'pending' && mutation.state.isPaused && mutation.state.failureCount === 0;
      const replaces = mutation.state.variables?.replaces;
      if (waiting && replaces && dropped.has(replaces)) client.getMutationCache().remove(mutation);
    }
  }
  const request: QueuedRequest = { ...spec, key: newIdempotencyKey(), userId, queuedAt: Date.now() };
  const observer = new MutationObserver<unknown, Error, QueuedRequest>(client, { mutationKey: QUEUE_MUTATION_KEY, scope: { id: spec.scope } });
  const result = observer.mutate(request);
  result.catch(() => undefined);
  return result;
}
