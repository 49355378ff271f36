import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | null | undefined;

/** Spreadsheet formula injection: a cell never starts with a formula character (it gets a leading apostrophe). */
export function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * A CSV for French Excel: UTF-8 BOM, ";" between cells, CRLF after every row (the last one too), cells quoted when
 * they hold a quote, a ";" or a line break, and the formula guard on every text cell. Numbers are written as given
 * (format them first: decimal commas are the caller's).
 */
export function buildCsv(rows: CsvCell[][]): string {
  return stringify(
    rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))),
    {
      bom: true,
      delimiter: ';',
      record_delimiter: 'windows',
      // A lone \n or \r inside a cell is quoted too, not only the CRLF pair.
      quote_record_delimiter: true,
      cast: { string: guardFormula },
    },
  );
}
