import { formatDate } from '@maillon/common/format';
import { formatVisitSlot } from '@maillon/common/visit-slot';
import type { ProgressPatch } from '@maillon/common/schemas/field-work';
import { useQueuedRequest } from '@/lib/offline/use-queue';
import type { QueuedRequestSpec } from '@/lib/offline/queue';
import { queryKeys } from '@/lib/query-keys';

export interface SaveProgressInput {
  missionId: string;
  technicianId: string;
  /** The device's title, for the pending and refused lists. */
  title: string;
  patch: Pick<ProgressPatch, 'isCompleted' | 'plannedVisitDate' | 'visitWindow' | 'visitStartTime' | 'visitEndTime'>;
}

/** The device whose progress a queued change is about (its pending mark). */
export const deviceTarget = (missionId: string) => `mission:${missionId}`;

function describe(patch: SaveProgressInput['patch']): string {
  if (patch.plannedVisitDate !== undefined) {
    if (!patch.plannedVisitDate) return 'Date de passage retirée';
    const slot = { date: patch.plannedVisitDate, window: patch.visitWindow ?? null, startTime: patch.visitStartTime ?? null, endTime: patch.visitEndTime ?? null };
    return slot.window ? `Passage prévu le ${formatVisitSlot(slot)}` : `Passage prévu le ${formatDate(`${patch.plannedVisitDate}T12:00:00Z`)}`;
  }
  return patch.isCompleted ? 'Effectué' : 'À faire';
}

/**
 * A device's progress (Effectué / À faire, « Je passerais le : »), queued when offline (decision 023): one scope per
 * device keeps its changes in order; a newer value of the same field replaces one that has not left yet.
 */
export function saveProgressRequest({ missionId, technicianId, title, patch }: SaveProgressInput): QueuedRequestSpec {
  const field = patch.plannedVisitDate !== undefined ? 'date' : 'done';
  return {
    method: 'PATCH',
    url: `/api/technician-mission-data/${missionId}/${technicianId}`,
    json: patch,
    label: `${describe(patch)} — ${title}`,
    target: deviceTarget(missionId),
    scope: deviceTarget(missionId),
    replaces: `${deviceTarget(missionId)}:${field}`,
    // The work view of the lot and the tab counts.
    invalidate: [queryKeys.applications(technicianId)],
  };
}

export function useSaveProgress() {
  return useQueuedRequest(saveProgressRequest);
}
