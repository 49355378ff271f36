import { formatDate, formatLongDate } from './format';

// A planned visit: a day and an optional time window (issue 19). Texts and helpers without zod, so the technician's
// pages and the public visit page show them without loading a schema library (decision 013).

export const VISIT_WINDOWS = ['morning', 'afternoon', 'range'] as const;
export type VisitWindow = (typeof VISIT_WINDOWS)[number];
export const VISIT_WINDOW_LABELS: Record<VisitWindow, string> = {
  morning: 'Matin',
  afternoon: 'Après-midi',
  range: 'Plage horaire',
};
/** The hours a morning or an afternoon stands for in the calendar invitation. */
export const VISIT_WINDOW_TIMES: Record<Exclude<VisitWindow, 'range'>, { start: string; end: string }> = {
  morning: { start: '08:00', end: '12:00' },
  afternoon: { start: '14:00', end: '18:00' },
};

export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const SITE_MESSAGE_MAX = 1000;

export const VISIT_SLOT_MESSAGES = {
  badWindow: 'Créneau invalide (matin, après-midi ou plage horaire)',
  badTime: 'Heure invalide (format HH:MM)',
  rangeTimesRequired: 'Indiquez l’heure de début et l’heure de fin de la plage horaire',
  endBeforeStart: 'L’heure de fin doit être après l’heure de début',
  windowWithoutDate: 'Choisissez d’abord une date de passage',
} as const;

/** The site contact's proposal of another date (public page /rdv/:token). */
export const SITE_PROPOSAL_MESSAGES = {
  dateRequired: 'Choisissez la date que vous proposez',
  pastDate: 'Choisissez une date à venir',
  tooFar: 'Choisissez une date dans les 12 prochains mois',
  messageTooLong: `Le message doit contenir au plus ${SITE_MESSAGE_MAX} caractères`,
} as const;

/** A visit slot as the API carries it: day "YYYY-MM-DD", window, and its times (HH:MM, null for a whole day). */
export interface VisitSlot {
  date: string;
  window: VisitWindow | null;
  startTime: string | null;
  endTime: string | null;
}

/** The times of a window: the fixed hours of a morning or afternoon, the given ones of a range, null for a day. */
export function windowTimes(
  window: VisitWindow | null | undefined,
  startTime?: string | null,
  endTime?: string | null,
): { start: string; end: string } | null {
  if (!window) return null;
  if (window === 'range') return startTime && endTime ? { start: startTime, end: endTime } : null;
  return VISIT_WINDOW_TIMES[window];
}

/** "08:00" → « 8 h », "14:30" → « 14 h 30 ». */
export function formatTime(value: string): string {
  const [hours, minutes] = value.split(':');
  const h = String(Number(hours));
  return minutes && minutes !== '00' ? `${h} h ${minutes}` : `${h} h`;
}

/** « le matin (8 h – 12 h) », « l’après-midi (14 h – 18 h) », « de 9 h 30 à 11 h », or « dans la journée ». */
export function formatVisitWindow(slot: Pick<VisitSlot, 'window' | 'startTime' | 'endTime'>): string {
  const times = windowTimes(slot.window, slot.startTime, slot.endTime);
  if (!slot.window || !times) return 'dans la journée';
  const range = `${formatTime(times.start)} – ${formatTime(times.end)}`;
  if (slot.window === 'morning') return `le matin (${range})`;
  if (slot.window === 'afternoon') return `l’après-midi (${range})`;
  return `de ${formatTime(times.start)} à ${formatTime(times.end)}`;
}

const dayAsInstant = (day: string) => `${day}T12:00:00Z`;

/** « 12/03/2026, le matin (8 h – 12 h) ». */
export function formatVisitSlot(slot: VisitSlot): string {
  return `${formatDate(dayAsInstant(slot.date))}, ${formatVisitWindow(slot)}`;
}

/** « jeudi 12 mars 2026, le matin (8 h – 12 h) ». */
export function formatVisitSlotLong(slot: VisitSlot): string {
  return `${formatLongDate(dayAsInstant(slot.date))}, ${formatVisitWindow(slot)}`;
}

/** Whether two slots name the same day and hours. */
export function sameVisitSlot(a: VisitSlot | null, b: VisitSlot | null): boolean {
  if (!a || !b) return a === b;
  const ta = windowTimes(a.window, a.startTime, a.endTime);
  const tb = windowTimes(b.window, b.startTime, b.endTime);
  return a.date === b.date && (a.window ?? null) === (b.window ?? null) && ta?.start === tb?.start && ta?.end === tb?.end;
}
