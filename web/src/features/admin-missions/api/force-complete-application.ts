import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { completeBatch } from './complete-batch';

/**
 * "Forcer Terminer Mission": PATCH /api/applications/{id}/complete as the admin finishes the lot (decisions.md §4);
 * the lot is then completed too (idempotent). If only that second call fails, a warning is logged and nothing shown.
 */
export async function forceCompleteApplication({ applicationId, batchId }: { applicationId: string; batchId: string | null }) {
  await api.patch(`/api/applications/${applicationId}/complete`);
  if (batchId) {
    try {
      await completeBatch(batchId);
    } catch (error) {
      console.warn('Lot non terminé après la complétion de la candidature', error);
    }
  }
}

/** The page reloads 1 s after success (spec 02 §9), so no cache is refreshed here. */
export function useForceCompleteApplication() {
  return useMutation({ mutationFn: forceCompleteApplication });
}
