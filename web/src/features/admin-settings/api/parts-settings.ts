import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Consumable, ConsumableRequest, PartsSettings } from '@maillon/common/schemas/parts';
import { api } from '@/lib/api-client';

export const partsSettingsQueryKey = ['admin', 'parts-settings'] as const;
export const consumablesQueryKey = ['admin', 'consumables'] as const;

export function getPartsSettings() {
  return api.get<PartsSettings>('/api/admin/parts-settings');
}

/** « Marge d'expiration » and « colis à expédier N jours avant la première visite ». */
export const partsSettingsQueryOptions = () => queryOptions({ queryKey: partsSettingsQueryKey, queryFn: getPartsSettings });

export function usePartsSettings() {
  return useQuery(partsSettingsQueryOptions());
}

export function savePartsSettings(body: PartsSettings) {
  return api.put<PartsSettings>('/api/admin/parts-settings', body);
}

export function useSavePartsSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePartsSettings,
    // Every proposal depends on them.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: partsSettingsQueryKey }), queryClient.invalidateQueries({ queryKey: ['admin', 'shipments'] })]),
  });
}

export function getConsumables() {
  return api.get<Consumable[]>('/api/admin/consumables');
}

/** The reference parts of each model (battery, adult and paediatric electrodes). */
export function useConsumables() {
  return useQuery({ queryKey: consumablesQueryKey, queryFn: getConsumables });
}

export function saveConsumable({ id, body }: { id: string | null; body: ConsumableRequest }) {
  return id ? api.put<Consumable>(`/api/admin/consumables/${id}`, body) : api.post<Consumable>('/api/admin/consumables', body);
}

export function deleteConsumable(id: string) {
  return api.delete<null>(`/api/admin/consumables/${id}`);
}

function useConsumableMutation<T>(mutationFn: (value: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: consumablesQueryKey }), queryClient.invalidateQueries({ queryKey: ['admin', 'shipments'] })]),
  });
}

export const useSaveConsumable = () => useConsumableMutation(saveConsumable);
export const useDeleteConsumable = () => useConsumableMutation(deleteConsumable);
