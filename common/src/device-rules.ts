// Rules of the device registry and of the visit report, without zod: the technician's report screen checks its form
// with them (decision 013 keeps zod off technician first loads); schemas/devices.ts and schemas/visit-reports.ts use
// them on the server. See docs/decisions/024-device-registry-and-visit-reports.md.

/**
 * The registry key of a serial number: Unicode-compatible characters folded (NFKC: a full-width "Ａ" is an "A"), then
 * every character that is not an ASCII letter or digit removed (spaces, dashes, dots, slashes, underscores…), then
 * upper case. "sn-75 1001", "SN75/1001" and "SN 75.1001" are one device. The SQL of the data migration (0008) computes
 * the same key: `upper(regexp_replace(normalize(serial, NFKC), '[^A-Za-z0-9]', '', 'g'))`.
 */
export function normalizeSerial(value: string): string {
  return value.normalize('NFKC').replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/**
 * A key names a device only when it has a digit and at least 3 characters: "N/A", "inconnu" or "NC" are placeholders
 * typed for a missing serial, and would otherwise merge unrelated devices.
 */
export function isDeviceSerialKey(key: string): boolean {
  return key.length >= 3 && key.length <= 60 && /\d/.test(key);
}

/** The key of a serial number, or null when it cannot name a device. */
export function deviceSerialKey(value: string | null | undefined): string | null {
  if (!value) return null;
  const key = normalizeSerial(value);
  return isDeviceSerialKey(key) ? key : null;
}

/** A SIREN: 9 digits whose Luhn sum is a multiple of 10 (spaces allowed when typed). */
export function isValidSiren(value: string): boolean {
  const digits = value.replace(/\s+/g, '');
  if (!/^\d{9}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i += 1) {
    let digit = Number(digits[8 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** French numbers of the overseas departments and territories whose country code is not +33. */
const OVERSEAS_PREFIXES: Record<string, string> = {
  '0262': '+262', '0263': '+262', '0269': '+262', '0639': '+262', '0692': '+262', '0693': '+262',
  '0590': '+590', '0690': '+590', '0691': '+590',
  '0594': '+594', '0694': '+594',
  '0596': '+596', '0696': '+596', '0697': '+596',
  '0508': '+508',
};

/**
 * A phone number in the international form Géo'DAE asks for (+33 followed by 9 digits, or an overseas code), from what
 * people type: "01 23 45 67 89", "01.23.45.67.89", "+33 (0)1 23 45 67 89", "0033123456789". Null when it is not a
 * phone number.
 */
export function toInternationalPhone(value: string | null | undefined): string | null {
  if (!value) return null;
  let compact = value.replace(/\(0\)/g, '').replace(/[\s.\-()/]/g, '');
  if (compact.startsWith('0033')) compact = `+33${compact.slice(4)}`;
  if (/^\+33\d{9}$/.test(compact)) return /^\+330/.test(compact) ? null : compact;
  if (/^\+(262|269|508|590|594|596|681|687|689)\d{6,9}$/.test(compact)) return compact;
  if (/^0[1-9]\d{8}$/.test(compact)) {
    const overseas = OVERSEAS_PREFIXES[compact.slice(0, 4)];
    return `${overseas ?? '+33'}${compact.slice(1)}`;
  }
  if (/^[1-9]\d{8}$/.test(compact)) return `+33${compact}`;
  return null;
}

export const PHONE_INVALID = 'Numéro de téléphone invalide (ex. 01 23 45 67 89 ou +33 1 23 45 67 89)';
export const SIREN_INVALID = 'SIREN invalide : 9 chiffres dont le dernier est une clé de contrôle';
export const SERIAL_INVALID = 'Numéro de série invalide : il doit contenir au moins un chiffre et 3 caractères (lettres ou chiffres)';

// ---- Opening hours (schema-dae `dispo_horaires`, OpenStreetMap opening_hours, restricted) ----

const OSM_DAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'] as const;
const FRENCH_DAYS: Record<string, string> = { Mo: 'lun.', Tu: 'mar.', We: 'mer.', Th: 'jeu.', Fr: 'ven.', Sa: 'sam.', Su: 'dim.', PH: 'jours fériés' };
const TIME = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;
const minutesOf = (time: string) => (time === '24:00' ? 1440 : Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)));

export const OPENING_HOURS_EXAMPLE = 'ex. 24/7, Mo-Fr 08:00-18:00 ou Mo-Fr 08:00-12:00,14:00-18:00; Sa 09:00-12:00; PH off';

function checkSelector(selector: string): string | null {
  for (const item of selector.split(',')) {
    if (item === 'PH') continue;
    const range = item.split('-');
    if (range.length > 2 || range.some((day) => !OSM_DAYS.includes(day as (typeof OSM_DAYS)[number]))) {
      const unknown = range.find((day) => !OSM_DAYS.includes(day as (typeof OSM_DAYS)[number])) ?? item;
      return `Jour « ${unknown} » inconnu : utilisez Mo, Tu, We, Th, Fr, Sa, Su (ou PH pour les jours fériés), ex. Mo-Fr`;
    }
  }
  return null;
}

function checkTimes(times: string, rule: string): string | null {
  for (const span of times.split(',')) {
    const [start, end, extra] = span.split('-');
    if (extra !== undefined || !start || !end || !TIME.test(start) || !TIME.test(end) || start === '24:00') {
      return `Horaire « ${span || rule} » invalide : attendu HH:MM-HH:MM (ex. 08:30-18:00)`;
    }
    if (minutesOf(end) <= minutesOf(start)) return `Horaire « ${span} » invalide : l’heure de fin doit suivre l’heure de début`;
  }
  return null;
}

/**
 * The opening hours as Géo'DAE's `dispo_horaires` takes them: `24/7`, or rules separated by "; ", each made of days
 * (Mo Tu We Th Fr Sa Su, ranges Mo-Fr, lists Mo,We, PH for public holidays) followed by time spans HH:MM-HH:MM
 * (several separated by ",") or `off`; a rule of time spans alone applies to every day. Returns the French reason it is
 * refused, or null. Dates, weeks, months and comments of the full OSM grammar are not accepted.
 */
export function checkOpeningHours(value: string): string | null {
  const text = value.trim();
  if (!text) return `Indiquez les horaires de disponibilité (${OPENING_HOURS_EXAMPLE})`;
  if (text.length > 255) return 'Horaires trop longs : 255 caractères maximum';
  if (text === '24/7') return null;
  for (const raw of text.split(';')) {
    const rule = raw.trim();
    if (!rule) return 'Règle vide : retirez le « ; » en trop';
    if (rule === '24/7') return '« 24/7 » s’écrit seul, sans autre règle';
    const tokens = rule.split(/\s+/);
    const hasDays = /^[A-Za-z]/.test(tokens[0]!) && tokens[0] !== 'off';
    if (hasDays) {
      const error = checkSelector(tokens[0]!);
      if (error) return error;
      tokens.shift();
    }
    if (tokens.length === 0) return `Règle « ${rule} » : ajoutez des horaires (08:00-18:00) ou « off »`;
    if (tokens.length > 1) return `Règle « ${rule} » invalide (${OPENING_HOURS_EXAMPLE})`;
    const times = tokens[0]!;
    if (times === 'off') {
      if (!hasDays) return '« off » doit suivre des jours, ex. Sa-Su off';
      continue;
    }
    const error = checkTimes(times, rule);
    if (error) return error;
  }
  return null;
}

/** The canonical spelling of valid opening hours: single spaces, rules joined by "; ". */
export function normalizeOpeningHours(value: string): string {
  return value
    .trim()
    .split(';')
    .map((rule) => rule.trim().split(/\s+/).join(' '))
    .join('; ');
}

/** Valid opening hours in French: "lun.–ven. 08:00–18:00 ; sam. 09:00–12:00 ; jours fériés fermé". */
export function describeOpeningHours(value: string | null | undefined): string {
  if (!value) return '';
  if (value.trim() === '24/7') return '24 h/24, 7 j/7';
  return normalizeOpeningHours(value)
    .split('; ')
    .map((rule) => {
      const tokens = rule.split(' ');
      const days = tokens.length === 2 ? tokens[0]!.split(',').map((item) => item.split('-').map((d) => FRENCH_DAYS[d] ?? d).join('–')).join(', ') : 'tous les jours';
      const times = tokens[tokens.length - 1]!;
      return `${days} ${times === 'off' ? 'fermé' : times.replace(/-/g, '–').replace(/,/g, ', ')}`;
    })
    .join(' ; ');
}

// ---- Dates ----

const parisDayFormatter = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });

const MINUTE_MS = 60_000;
// France changes its UTC offset on whole hours: within one UTC minute the day in France is one day. The day of the last
// minute asked is kept, so the server's reads of "today" (every badge, every registry page) do not format a date each.
let keptMinute = Number.NaN;
let keptDay = '';

/** The calendar day in France (YYYY-MM-DD) of an instant: "today" for expiry dates. */
export function parisDay(date: Date = new Date()): string {
  const minute = Math.floor(date.getTime() / MINUTE_MS);
  if (minute !== keptMinute) {
    keptDay = parisDayFormatter.format(date);
    keptMinute = minute;
  }
  return keptDay;
}

/** A real calendar day written YYYY-MM-DD. */
export function isIsoDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A day plus whole months, kept within the target month (31 January + 1 month = 28 or 29 February). */
export function addMonthsToDay(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1, 12));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0, 12)).getUTCDate();
  target.setUTCDate(Math.min(date, lastDay));
  return target.toISOString().slice(0, 10);
}

let lastAdded = { day: '', days: Number.NaN, result: '' };

/** A day plus a number of days (the last sum is kept: the server adds the same window to the same day all day long). */
export function addDaysToDay(day: string, days: number): string {
  if (day === lastAdded.day && days === lastAdded.days) return lastAdded.result;
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  const result = date.toISOString().slice(0, 10);
  lastAdded = { day, days, result };
  return result;
}

/** dd/mm/yyyy of a YYYY-MM-DD day (no time zone involved). */
export function formatDay(day: string | null | undefined): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return '';
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

export const MAINTENANCE_INTERVAL_DEFAULT_MONTHS = 12;
/** The registry's "due soon" windows, in days; the admin badge counts the first one. */
export const DUE_WINDOWS = [30, 60, 90] as const;
export const ATTENTION_WINDOW_DAYS = 30;

// ---- Visit report ----

export const VISIT_PHOTOS_MAX = 6;
/** Photos are stored at most this many pixels on their longer side (resized on the server, and first in the browser). */
export const VISIT_PHOTO_MAX_SIDE = 1600;
export const OBSERVATIONS_MAX = 4000;

export const CHECKLIST_ITEMS = [
  { key: 'generalCondition', label: 'État général' },
  { key: 'statusIndicator', label: 'Voyant d’état' },
  { key: 'battery', label: 'Batterie' },
  { key: 'adultPads', label: 'Électrodes adultes' },
  { key: 'pediatricPads', label: 'Électrodes pédiatriques' },
  { key: 'signage', label: 'Signalétique' },
  { key: 'cabinet', label: 'Armoire / alarme' },
] as const;
export type ChecklistKey = (typeof CHECKLIST_ITEMS)[number]['key'];
export const CHECKLIST_KEYS = CHECKLIST_ITEMS.map((item) => item.key) as ChecklistKey[];

export const CHECK_VALUES = ['ok', 'issue', 'na'] as const;
export type CheckValue = (typeof CHECK_VALUES)[number];
export const CHECK_LABELS: Record<CheckValue, string> = { ok: 'OK', issue: 'À signaler', na: 'Non applicable' };

/** The expiry dates a report records, with their French names. */
export const EXPIRY_FIELDS = [
  { key: 'batteryExpiry', label: 'Péremption de la batterie' },
  { key: 'adultPadsExpiry', label: 'Péremption des électrodes adultes' },
  { key: 'pediatricPadsExpiry', label: 'Péremption des électrodes pédiatriques' },
] as const;
export type ExpiryKey = (typeof EXPIRY_FIELDS)[number]['key'];

export const REPORT_MESSAGES = {
  outcomeRequired: 'Indiquez le résultat de la visite',
  checklistRequired: 'Complétez la liste de contrôle',
  expiryRequired: (label: string) => `${label} : date requise`,
  expiryPast: (label: string) => `${label} : la date est dépassée, indiquez celle du consommable en place (remplacez-le s’il est périmé)`,
  expiryInvalid: (label: string) => `${label} : date invalide`,
  pediatricPresenceRequired: 'Indiquez si des électrodes pédiatriques sont présentes',
  observationsRequired: 'Décrivez la panne ou l’anomalie dans les observations',
  signatureRequired: 'Faites signer le contact du site, ou indiquez pourquoi la signature n’a pas pu être recueillie',
  signerRequired: 'Indiquez le nom de la personne qui signe',
  photosMax: `${VISIT_PHOTOS_MAX} photos au maximum par rapport`,
  photoNotImage: 'Photo refusée : seules les images JPEG ou PNG sont acceptées',
  photoTooLarge: 'Photo refusée : elle dépasse la taille maximale de 10 Mo',
  photoUnreadable: 'Photo refusée : l’image est illisible ou endommagée',
  visitedAtFuture: 'La date de la visite ne peut pas être dans le futur',
  visitedAtRequired: 'Indiquez la date et l’heure de la visite',
} as const;

/** The outcomes after which the device was maintained (its last maintenance date moves to the visit's day). */
export const MAINTAINED_OUTCOMES = ['En fonctionnement', 'Hors service'] as const;

export interface ReportFormValues {
  outcome: string | null;
  checklist: Partial<Record<ChecklistKey, CheckValue>>;
  batteryExpiry: string | null;
  adultPadsExpiry: string | null;
  pediatricPadsPresent: boolean | null;
  pediatricPadsExpiry: string | null;
  observations: string | null;
  signerName: string | null;
  hasSignature: boolean;
  unsignedReason: string | null;
}

/**
 * What a complete report needs, by field (the same rules on the phone and on the server): an outcome; for a device
 * found and checked (En fonctionnement, Hors service) the whole checklist and the expiry dates read on the
 * consumables, none of them past; observations for a device out of order; a signature with the signer's name or the
 * reason there is none, unless the site could not be reached.
 */
export function checkCompleteReport(values: ReportFormValues, today: string = parisDay()): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.outcome) {
    errors.outcome = REPORT_MESSAGES.outcomeRequired;
    return errors;
  }
  const checked = (MAINTAINED_OUTCOMES as readonly string[]).includes(values.outcome);
  if (checked) {
    const missing = CHECKLIST_KEYS.filter((key) => !values.checklist[key]);
    if (missing.length) errors.checklist = REPORT_MESSAGES.checklistRequired;
    if (values.pediatricPadsPresent === null) errors.pediatricPadsPresent = REPORT_MESSAGES.pediatricPresenceRequired;
  }
  for (const { key, label } of EXPIRY_FIELDS) {
    const value = values[key];
    const needed = checked && values.outcome === 'En fonctionnement' && (key !== 'pediatricPadsExpiry' || values.pediatricPadsPresent === true);
    if (!value) {
      if (needed) errors[key] = REPORT_MESSAGES.expiryRequired(label);
      continue;
    }
    if (!isIsoDay(value)) errors[key] = REPORT_MESSAGES.expiryInvalid(label);
    else if (value < today) errors[key] = REPORT_MESSAGES.expiryPast(label);
  }
  if (values.outcome === 'Hors service' && !values.observations?.trim()) errors.observations = REPORT_MESSAGES.observationsRequired;
  if (values.outcome !== 'Site inaccessible') {
    if (values.hasSignature && !values.signerName?.trim()) errors.signerName = REPORT_MESSAGES.signerRequired;
    if (!values.hasSignature && !values.unsignedReason?.trim()) errors.signature = REPORT_MESSAGES.signatureRequired;
  }
  return errors;
}
