import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecordViewResponse, ResourceView } from '@maillon/common/schemas/learning-resources';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { resourceViewsQueryKey } from './get-resource-views';

export function recordResourceView({ resourceId, technicianId }: { resourceId: string; technicianId: string }): Promise<RecordViewResponse> {
  return api.post<RecordViewResponse>(`/api/learning-resources/${resourceId}/view`, { technicianId });
}

/** Records that a module was opened; the banner, the badge and the formation state follow. */
export function useRecordResourceView(technicianId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resourceId: string) => recordResourceView({ resourceId, technicianId }),
    onSuccess: async ({ view }) => {
      queryClient.setQueryData<ResourceView[]>(resourceViewsQueryKey(technicianId), (views) =>
        views && !views.some((v) => v.resourceId === view.resourceId) ? [...views, view] : views,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.technicianCounts(technicianId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.me }),
        queryClient.invalidateQueries({ queryKey: queryKeys.availableLots }),
      ]);
    },
  });
}
