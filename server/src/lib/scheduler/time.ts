/** Offset of `timeZone` from UTC at `instant`, in minutes (Europe/Paris: 60 in winter, 120 in summer). */
export function timeZoneOffsetMinutes(instant: Date, timeZone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The calendar date (year, month 1-12, day) of `instant` in `timeZone`. */
export function zonedDate(instant: Date, timeZone: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    instant,
  );
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/** The instant at which the wall clock of `timeZone` shows `hour:minute` on the given date. */
export function zonedTimeToInstant(
  date: { year: number; month: number; day: number },
  hour: number,
  minute: number,
  timeZone: string,
): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  // Twice: the offset at the first guess may differ from the offset at the answer around a DST change.
  let instant = wall - timeZoneOffsetMinutes(new Date(wall), timeZone) * 60_000;
  instant = wall - timeZoneOffsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}

/** The first instant strictly after `after` at which `timeZone`'s wall clock shows `HH:MM`. */
export function nextDailyRun(after: Date, at: string, timeZone: string): Date {
  const [hour, minute] = at.split(':').map(Number) as [number, number];
  const today = zonedDate(after, timeZone);
  for (let offsetDays = 0; offsetDays < 3; offsetDays += 1) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day + offsetDays));
    const candidate = zonedTimeToInstant(
      { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() },
      hour,
      minute,
      timeZone,
    );
    if (candidate.getTime() > after.getTime()) return candidate;
  }
  throw new Error(`Heure quotidienne introuvable après ${after.toISOString()}`);
}
