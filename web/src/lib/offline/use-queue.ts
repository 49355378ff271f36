import { useCallback, useSyncExternalStore } from 'react';
import { onlineManager, useMutationState, useQueryClient } from '@tanstack/react-query';
import { useOfflineAccount } from './offline-provider';
import { enqueueRequest, isQueueMutation, QUEUE_MUTATION_KEY, type QueueMutation, type QueuedRequestSpec } from './queue';
import { refusalOf, type QueuedRequest, type Refusal } from './queued-request';

/** A feature's way to make a change that survives the network: it declares the request, the queue does the rest. */
export function useQueuedRequest<TInput>(build: (input: TInput) => QueuedRequestSpec) {
  const client = useQueryClient();
  const account = useOfflineAccount();
  const send = useCallback(
    (input: TInput) => {
      if (!account) return Promise.reject(new Error('Hors de l’espace technicien'));
      return enqueueRequest(client, account.userId, build(input));
    },
    [account, build, client],
  );
  return { send };
}

function subscribeOnline(callback: () => void) {
  return onlineManager.subscribe(callback);
}

/** Whether the queue believes the network is there (the browser's online and offline events). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => onlineManager.isOnline(), () => true);
}

/** Changes made on this phone that the server does not have yet (optionally only those about one target). */
export function usePendingChanges(target?: string): QueuedRequest[] {
  return useMutationState({
    filters: {
      mutationKey: QUEUE_MUTATION_KEY,
      status: 'pending',
      predicate: (mutation) => !target || (mutation.state.variables as QueuedRequest | undefined)?.target === target,
    },
    select: (mutation) => mutation.state.variables as QueuedRequest,
  });
}

export interface LocalChange {
  request: QueuedRequest;
  /** Not sent yet (false once delivered, until the screen's reads have been asked again). */
  waiting: boolean;
}

/**
 * Changes made on this phone that the screens must show over the server's data: waiting ones, and delivered ones until
 * the reads they touched are refreshed (so a toggle never flickers back).
 */
export function useLocalChanges(targetPrefix?: string): LocalChange[] {
  return useMutationState({
    filters: {
      mutationKey: QUEUE_MUTATION_KEY,
      predicate: (mutation) =>
        (mutation.state.status === 'pending' || mutation.state.status === 'success') &&
        (!targetPrefix || ((mutation.state.variables as QueuedRequest | undefined)?.target ?? '').startsWith(targetPrefix)),
    },
    select: (mutation) => ({ request: mutation.state.variables as QueuedRequest, waiting: mutation.state.status === 'pending' }),
  });
}

export interface RefusedChange {
  key: string;
  label: string;
  refusal: Refusal;
  queuedAt: number;
}

/** Changes the server refused, with its reason, until the technician dismisses them. */
export function useRefusedChanges(): { refused: RefusedChange[]; dismiss: (key: string) => void } {
  const client = useQueryClient();
  const refused = useMutationState({
    filters: { mutationKey: QUEUE_MUTATION_KEY, status: 'error' },
    select: (mutation) => {
      const request = mutation.state.variables as QueuedRequest;
      return { key: request.key, label: request.label, refusal: refusalOf(mutation.state.error), queuedAt: request.queuedAt };
    },
  });
  const dismiss = useCallback(
    (key: string) => {
      const cache = client.getMutationCache();
      const mutation = cache.getAll().find((m) => isQueueMutation(m) && (m as unknown as QueueMutation).state.variables?.key === key);
      if (mutation) cache.remove(mutation);
    },
    [client],
  );
  return { refused, dismiss };
}
