import { useMutation } from '@tanstack/react-query';
import type { MissionProgress, ProgressPatch } from '@maillon/common/schemas/field-work';
import { api } from '@/lib/api-client';

export function saveProgress({ missionId, technicianId, patch }: { missionId: string; technicianId: string; patch: ProgressPatch }) {
  return api.patch<MissionProgress>(`/api/technician-mission-data/${missionId}/${technicianId}`, patch);
}

/** Saves a device's progress; the caller refreshes the work view (the spec waits 200 ms after a toggle). */
export function useSaveProgress() {
  return useMutation({ mutationFn: saveProgress });
}
