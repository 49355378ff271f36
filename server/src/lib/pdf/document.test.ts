import { describe, expect, it } from 'vitest';
import { jpegBytes, pngBytes } from '../../../test/multipart';
import { readPdf } from '../../../test/pdf';
import { PdfWriter } from './document';
import { fontsFolder } from './fonts';

const info = { title: 'Relevé annuel 2026', author: 'Association Maillon', creator: 'Maillon', createdAt: new Date('2026-12-31T12:00:00Z') };

describe('PDF toolkit', () => {
  it('finds the vendored fonts from the sources', () => {
    expect(fontsFolder()).toMatch(/server[/\\]assets[/\\]fonts$/);
  });

  it('continues a table on the next pages with its header, numbers the pages and prints the fingerprint line', async () => {
    const pdf = await PdfWriter.create(info);
    pdf.charityHeader({ charityName: 'Association Maillon', productName: 'Maillon', subtitle: 'Relevé des paiements' });
    pdf.keyValues([
      { label: 'Technicien', value: 'Zoé « Le Bœuf »' },
      { label: 'Total', value: '12\u202f345,67\u00a0€', bold: true },
    ]);
    const rows = Array.from({ length: 90 }, (_, i) => [`VIR-${String(i + 1).padStart(3, '0')}`, `Lot n° ${i + 1} « Île-de-France »`, '1\u202f234,50\u00a0€']);
    pdf.table(
      [
        { header: 'Virement', width: 1 },
        { header: 'Mission', width: 2 },
        { header: 'Montant', width: 1, align: 'right' },
      ],
      rows,
    );
    const read = await readPdf(await pdf.finish({ note: 'Document généré par Maillon.', pageNumbers: true, fingerprint: 'Empreinte SHA-256 : 0123abcd' }));
    expect(read.pageCount).toBeGreaterThanOrEqual(3);
    read.pages.forEach((text, index) => {
      expect(text).toContain(`Page ${index + 1} sur ${read.pageCount}`);
      expect(text).toContain('Empreinte SHA-256 : 0123abcd');
      expect(text).toContain('Document généré par Maillon.');
      // The header row is repeated at the top of each page the table continues on.
      expect(text.split('\n').filter((line) => line === 'Montant')).toHaveLength(1);
    });
    const all = read.pages.join('\n');
    for (const row of rows) expect(all).toContain(row[0]);
    expect(all).toContain('Lot n° 90 « Île-de-France »');
    expect(all).toContain('1\u202f234,50\u00a0€');
    expect(read.pages[0]).toContain('Relevé des paiements');
    expect(read.pages[0]).toContain('Maillon');
  });

  it('shares the parsed fonts between documents written at the same time, each with its own text and glyphs', async () => {
    // Interleaved: the second document starts before the first is finished, with other glyphs.
    const first = await PdfWriter.create(info);
    const second = await PdfWriter.create({ ...info, title: 'Étiquettes' });
    first.text('Zoé « Le Bœuf » : 12\u202f345,67\u00a0€');
    second.text('Kévin Ångström — ½ Œuvre', { bold: true });
    const [a, b] = await Promise.all([first.finish({ note: 'Premier document.' }), second.finish({ note: 'Second document.' })]);
    const [readA, readB] = await Promise.all([readPdf(a), readPdf(b)]);
    expect(readA.pages[0]).toContain('Zoé « Le Bœuf »');
    expect(readA.pages[0]).not.toContain('Ångström');
    expect(readB.pages[0]).toContain('Kévin Ångström — ½ Œuvre');
    expect(readB.pages[0]).toContain('Second document.');
    // Each embeds a subset: a small file, not the 400 KB typefaces.
    expect(a.length).toBeLessThan(60_000);
    expect(b.length).toBeLessThan(60_000);
  });

  it('wraps long text without breaking no-break spaces and cuts words wider than the line', async () => {
    const pdf = await PdfWriter.create(info);
    const lines = pdf.wrap(`Montant : 1\u202f234\u202f567,89\u00a0€ ${'mot '.repeat(30)}\n${'x'.repeat(400)}`, { size: 11, width: 200 });
    expect(lines.some((line) => line.includes('1\u202f234\u202f567,89\u00a0€'))).toBe(true);
    expect(lines.every((line) => pdf.regular.widthOfTextAtSize(line, 11) <= 200)).toBe(true);
    expect(lines.filter((line) => line.startsWith('x')).join('')).toBe('x'.repeat(400));
  });

  it('embeds PNG and JPEG images fitted to their box and refuses other bytes', async () => {
    const pdf = await PdfWriter.create(info);
    const png = await pdf.image(pngBytes(400, 200), { maxWidth: 100, maxHeight: 100 });
    expect(png).toEqual({ width: 100, height: 50 });
    const jpeg = await pdf.image(jpegBytes(2, 2), { maxWidth: 100, maxHeight: 100 });
    expect(jpeg).toEqual({ width: 2, height: 2 });
    await expect(pdf.image(Buffer.from('GIF89a'))).rejects.toThrow('Image PNG ou JPEG attendue');
    const read = await readPdf(await pdf.finish());
    expect(read.images).toEqual([2]);
  });
});
