import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarFeed } from '@maillon/common/schemas/appointments';
import { api } from '@/lib/api-client';

export const calendarFeedQueryKey = (technicianId: string) => ['technicians', technicianId, 'calendar-feed'] as const;

/** Whether the technician has a calendar address (never the address itself: only its hash is stored). */
export function getCalendarFeed(technicianId: string): Promise<CalendarFeed> {
  return api.get<CalendarFeed>(`/api/technicians/${technicianId}/calendar-feed`);
}

export const calendarFeedQueryOptions = (technicianId: string) =>
  queryOptions({ queryKey: calendarFeedQueryKey(technicianId), queryFn: () => getCalendarFeed(technicianId) });

export function useCalendarFeed(technicianId: string) {
  return useQuery(calendarFeedQueryOptions(technicianId));
}
