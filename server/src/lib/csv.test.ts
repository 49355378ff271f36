import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { buildCsv, type CsvCell } from './csv';

/** The hand-written writer csv-stringify replaced (money.service.ts before issue 14): the output must not change. */
function previousCsv(rows: CsvCell[][]): string {
  const cell = (value: CsvCell) => {
    let text = value === null || value === undefined ? '' : String(value);
    if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[";\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `\uFEFF${rows.map((row) => row.map(cell).join(';')).join('\r\n')}\r\n`;
}

const readBack = (csv: string) => parse(csv, { bom: true, delimiter: ';', record_delimiter: '\r\n', relax_column_count: true }) as string[][];

describe('buildCsv (csv-stringify, French Excel)', () => {
  it('writes BOM, ";", CRLF and the formula guard; csv-parse reads the values back', () => {
    const rows: CsvCell[][] = [
      ['Référence', 'Technicien', 'Montant'],
      ['=HYPERLINK("http://x";"clic")', '+33 6 12', '-12,50'],
      ['@SUM(A1)', '\tTabulé', '\rRetour'],
      ['Point;virgule', 'Guillemet "x"', 'Ligne\nsuivante'],
      ['', null, undefined],
      [12.5, 'Zoé « Le Bœuf »', '1 234,50'],
    ];
    const csv = buildCsv(rows);
    expect(csv.startsWith('\uFEFFRéférence;Technicien;Montant\r\n')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv).toContain(`"'=HYPERLINK(""http://x"";""clic"")";'+33 6 12;'-12,50\r\n`);
    expect(readBack(csv)).toEqual([
      ['Référence', 'Technicien', 'Montant'],
      [`'=HYPERLINK("http://x";"clic")`, "'+33 6 12", "'-12,50"],
      ["'@SUM(A1)", "'\tTabulé", "'\rRetour"],
      ['Point;virgule', 'Guillemet "x"', 'Ligne\nsuivante'],
      ['', '', ''],
      ['12.5', 'Zoé « Le Bœuf »', '1 234,50'],
    ]);
  });

  it('gives byte for byte what the hand-written writer gave, for any cells', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '"', ';', ' ', 'a', 'é', '\uFF1D'), maxLength: 8 }),
    );
    const cell: fc.Arbitrary<CsvCell> = fc.oneof(text, fc.constant(null), fc.constant(undefined), fc.integer());
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }), (rows) => {
        expect(buildCsv(rows)).toBe(previousCsv(rows));
      }),
      { numRuns: 500 },
    );
  });
});
