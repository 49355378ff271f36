const dateFormatter = new Intl.DateTimeFormat('fr-FR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'Europe/Paris',
});
const euroFormatter = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const euroWholeFormatter = new Intl.NumberFormat('fr-FR', {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});
const decimalFormatter = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1, minimumFractionDigits: 1 });

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** dd/mm/yyyy in French format (Europe/Paris); empty text for a missing or invalid date. */
export function formatDate(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  return date ? dateFormatter.format(date) : '';
}

const longDateFormatter = new Intl.DateTimeFormat('fr-FR', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/Paris',
});

/** « jeudi 12 mars 2026 » (Europe/Paris); empty text for a missing or invalid date. */
export function formatLongDate(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  return date ? longDateFormatter.format(date) : '';
}

/** Euros in French format with 2 decimals: 1 234,50 €. Non-breaking spaces normalised to plain ones. */
export function formatEuros(amount: number | null | undefined): string {
  return euroFormatter.format(amount ?? 0).replace(/[\u202f\u00a0]/g, ' ');
}

/**
 * Euros as French typography sets them, for printed documents (PDF): 1\u202f234,50\u00a0€, a narrow no-break space
 * between thousands and a no-break space before the sign, so an amount never breaks across lines.
 */
export function formatEurosForPrint(amount: number | null | undefined): string {
  return euroFormatter.format(amount ?? 0);
}

/** Euros without decimals when whole (lot prices): 1 200 €. */
export function formatEurosShort(amount: number | null | undefined): string {
  const value = amount ?? 0;
  return (Number.isInteger(value) ? euroWholeFormatter : euroFormatter).format(value).replace(/[\u202f\u00a0]/g, ' ');
}

/** Under 1000 m in metres, otherwise km with one decimal (spec §9). */
export function formatDistance(metres: number | null | undefined): string {
  if (metres === null || metres === undefined || !Number.isFinite(metres)) return 'Distance inconnue';
  if (metres < 1000) return `${Math.round(metres)} m`;
  return `${decimalFormatter.format(metres / 1000)} km`;
}

const wholeFormatter = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });

/** A whole count with French digit groups: "3 001" (a narrow no-break space). */
export function formatCount(count: number): string {
  return wholeFormatter.format(count);
}

/** A list's total: « 1 000 », or « plus de 1 000 » when its count stopped there (a broad search, decision 042). */
export function formatTotal(total: number, capped = false): string {
  return `${capped ? 'plus de ' : ''}${formatCount(total)}`;
}

/** A list's total with its noun, as a line begins: « 1 facture », « 3 factures », « Plus de 1 000 factures ». */
export function formatTotalOf(total: number, capped: boolean, singular: string, plural: string): string {
  const text = `${formatTotal(total, capped)} ${total > 1 ? plural : singular}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A distance to read at a glance (lots, maps): "4,7 km" under 10 km, "86 km" above, "< 1 km" close by. */
export function formatKilometres(metres: number | null | undefined): string {
  if (metres === null || metres === undefined || !Number.isFinite(metres)) return 'Distance inconnue';
  if (metres < 1000) return '< 1 km';
  if (metres < 10_000) return `${decimalFormatter.format(metres / 1000)} km`;
  return `${wholeFormatter.format(Math.round(metres / 1000))} km`;
}

/** Minutes, or hours and minutes (spec §9). */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${String(rest).padStart(2, '0')}`;
}

/** Cents (integer) to euros (number with at most 2 decimals). */
export function centsToEuros(cents: number): number {
  return Math.round(cents) / 100;
}

/** Euros (number) to integer cents, rounded to the cent. */
export function eurosToCents(euros: number): number {
  return Math.round(euros * 100);
}

/** IBAN shown masked with its last 4 characters. */
export function maskIban(iban: string | null | undefined): string {
  if (!iban) return '';
  const compact = iban.replace(/\s+/g, '');
  return `•••• ${compact.slice(-4)}`;
}

const timeFormatter = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Paris' });

/** "dd/mm/yyyy à HH:MM" in France's time (Europe/Paris); empty text for a missing or invalid date. */
export function formatDateTime(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  return date ? `${dateFormatter.format(date)} à ${timeFormatter.format(date)}` : '';
}
