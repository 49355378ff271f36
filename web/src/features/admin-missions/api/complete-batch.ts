import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import { api } from '@/lib/api-client';

/** PUT /api/mission-batches/{id}/complete: finishes the lot (idempotent; the page reloads right after). */
export function completeBatch(id: string) {
  return api.put<AdminBatch>(`/api/mission-batches/${id}/complete`);
}
