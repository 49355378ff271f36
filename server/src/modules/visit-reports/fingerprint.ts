import crypto from 'node:crypto';

/**
 * Canonical JSON (the idea of RFC 8785 for the values a report holds: strings, integers, booleans, null, arrays,
 * objects): object keys sorted by code point, no whitespace, undefined members left out. Two reports with the same
 * data give the same text, whatever the order their fields were written in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('Nombre non fini dans les données du rapport');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  throw new Error(`Valeur non sérialisable dans les données du rapport : ${typeof value}`);
}

/** What a report version is made of: its fields, the photos and the signature by their SHA-256 (docs/decisions/024). */
export interface ReportCanonicalData {
  format: 'maillon-visit-report/1';
  reportId: string;
  missionId: string;
  technicianId: string;
  serialNumber: string | null;
  visitedAt: string;
  outcome: string;
  checklist: Record<string, string>;
  batteryExpiry: string | null;
  adultPadsExpiry: string | null;
  pediatricPadsPresent: boolean | null;
  pediatricPadsExpiry: string | null;
  consumablesReplaced: string[];
  observations: string | null;
  signerName: string | null;
  signedAt: string | null;
  signatureSha256: string | null;
  unsignedReason: string | null;
  photosSha256: string[];
}

export function reportFingerprint(data: ReportCanonicalData): string {
  return crypto.createHash('sha256').update(canonicalJson(data), 'utf8').digest('hex');
}
