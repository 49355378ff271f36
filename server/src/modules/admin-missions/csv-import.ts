import { parse } from 'csv-parse/sync';
import {
  CSV_COLUMNS,
  CSV_IMPORT_MAX_ROWS,
  jobFieldsSchema,
  normalizeCsvHeader,
  type CsvImportMode,
  type CsvImportResponse,
  type CsvImportRow,
  type JobFields,
  type JobFieldsInput,
} from '@maillon/common/schemas/moderation';
import type { Db } from '../../db/client';
import { jobs } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { registerVisitDevices } from '../devices/devices.service';
import { completeLocation, findPendingKeys, jobKey } from './moderation.service';

type Field = keyof JobFieldsInput;

const HEADER_LOOKUP = new Map<string, Field>(
  (Object.entries(CSV_COLUMNS) as [Field, readonly string[]][]).flatMap(([field, names]) => names.map((name) => [normalizeCsvHeader(name), field] as const)),
);

/** CSV text from uploaded bytes: UTF-8 (with or without BOM), else Windows-1252 as saved by spreadsheet software. */
export function decodeCsv(buffer: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return new TextDecoder('windows-1252').decode(buffer);
  }
}

/** ";" when the header line holds more semicolons than commas (French spreadsheets), else ",". */
function detectDelimiter(text: string): string {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const semicolons = firstLine.split(';').length - 1;
  const commas = firstLine.split(',').length - 1;
  return semicolons > commas ? ';' : ',';
}

function toNumberOrText(value: string): number | string | undefined {
  if (value === '') return undefined;
  const number = Number(value.replace(',', '.'));
  return Number.isFinite(number) ? number : value;
}

interface ParsedRow {
  line: number;
  raw: Partial<Record<Field, string>>;
  fields: JobFields | null;
  errors: Record<string, string>;
}

/** Reads the rows and validates each one with the same schema as the API; never throws on a bad row. */
export function parseJobsCsv(text: string): ParsedRow[] {
  if (text.trim() === '') throw new AppError('BAD_REQUEST', 'Le fichier CSV est vide');
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new AppError('BAD_REQUEST', `Le fichier CSV est mal formé${line ? ` (ligne ${line})` : ''}`);
  }
  const [header, ...body] = records;
  if (!header) throw new AppError('BAD_REQUEST', 'Le fichier CSV est vide');
  const columns = header.map((name) => HEADER_LOOKUP.get(normalizeCsvHeader(name)) ?? null);
  if (!columns.some(Boolean)) {
    throw new AppError('BAD_REQUEST', 'En-têtes du fichier CSV non reconnus (attendu : numéro de série, dénomination client, modèle, type de visite…)');
  }
  if (body.length === 0) throw new AppError('BAD_REQUEST', 'Le fichier CSV ne contient aucune visite');
  if (body.length > CSV_IMPORT_MAX_ROWS) throw new AppError('BAD_REQUEST', `${CSV_IMPORT_MAX_ROWS} lignes maximum par fichier`);

  return body.map((cells, index) => {
    const raw: Partial<Record<Field, string>> = {};
    columns.forEach((field, column) => {
      if (field && raw[field] === undefined) raw[field] = cells[column] ?? '';
    });
    const input: Record<string, unknown> = { ...raw };
    for (const key of ['latitude', 'longitude'] as const) input[key] = toNumberOrText(raw[key] ?? '');
    const parsed = jobFieldsSchema.safeParse(input);
    const errors: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors[issue.path.join('.') || '_'] ??= issue.message;
    }
    return { line: index + 2, raw, fields: parsed.success ? parsed.data : null, errors };
  });
}

/**
 * CSV import into moderation. Preview (dry run) reports each row's errors and duplicates and writes nothing;
 * commit refuses a file with any invalid row and otherwise imports every new row in one transaction.
 */
export async function importJobsCsv(
  db: Db,
  { text, mode, actorUserId }: { text: string; mode: CsvImportMode; actorUserId: string },
): Promise<CsvImportResponse> {
  const rows = parseJobsCsv(text);
  const existing = await findPendingKeys(
    db,
    rows.flatMap((r) => (r.fields ? [r.fields.serialNumber] : [])),
  );
  const seen = new Set<string>();
  const report: CsvImportRow[] = rows.map((row) => {
    let duplicate = false;
    if (row.fields) {
      const key = jobKey(row.fields.serialNumber, row.fields.visitType);
      duplicate = existing.has(key) || seen.has(key);
      seen.add(key);
    }
    return {
      line: row.line,
      serialNumber: row.raw.serialNumber ?? '',
      clientName: row.raw.clientName ?? '',
      visitType: row.raw.visitType ?? '',
      department: row.raw.department ?? '',
      errors: row.errors,
      duplicate,
    };
  });
  const invalid = report.filter((r) => Object.keys(r.errors).length > 0).length;
  const duplicates = report.filter((r) => r.duplicate).length;
  const summary = { mode, total: rows.length, valid: rows.length - invalid, invalid, duplicates, created: 0, rows: report };
  if (mode === 'preview') return summary;
  if (invalid > 0) {
    throw new AppError(
      'VALIDATION_ERROR',
      `Le fichier contient ${invalid} ligne${invalid > 1 ? 's' : ''} en erreur : aucune visite importée`,
    );
  }
  const toInsert = rows.filter((_, index) => !report[index]!.duplicate).map((r) => r.fields!);
  const created = await db.transaction(async (tx) => {
    let n = 0;
    const located = toInsert.map(completeLocation);
    await registerVisitDevices(tx, located);
    for (const fields of located) {
      const inserted = await tx
        .insert(jobs)
        .values({ ...fields, source: 'csv', status: 'pending' })
        .onConflictDoNothing()
        .returning({ id: jobs.id });
      n += inserted.length;
    }
    await audit(tx, { actorUserId, action: 'job.import-csv', entity: 'job', after: { total: rows.length, created: n } });
    return n;
  });
  return { ...summary, duplicates: rows.length - created, created };
}
