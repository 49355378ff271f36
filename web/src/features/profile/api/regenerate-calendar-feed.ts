import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed } from '@maillon/common/schemas/appointments';
import { api } from '@/lib/api-client';
import { calendarFeedQueryKey } from './get-calendar-feed';

/** POST /api/technicians/{id}/calendar-feed: a new private address; the previous one stops working at once. */
export function regenerateCalendarFeed(technicianId: string): Promise<CalendarFeed> {
  return api.post<CalendarFeed>(`/api/technicians/${technicianId}/calendar-feed`);
}

/**
 * The answer carries the address, shown once: it stays in the mutation's state (the card's memory), never in the
 * query cache, which a persister could write to storage.
 */
export function useRegenerateCalendarFeed(technicianId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regenerateCalendarFeed(technicianId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarFeedQueryKey(technicianId) }),
  });
}
