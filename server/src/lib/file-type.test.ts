import { describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { jpegBytes, pngBytes, sampleFiles, zipBytes } from '../../test/multipart';
import { sniffFileType, type FileType } from './file-type';

const png = pngBytes(40, 30);
const jpeg = jpegBytes(800, 600);
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(24)]);

/** Bytes → the type we accept them as (null: refused). The upload corpus (test/security) runs the same through the routes. */
const cases: [string, Buffer, FileType | null][] = [
  ['PDF', sampleFiles.pdf(), 'pdf'],
  ['PNG', png, 'png'],
  ['APNG (a PNG for us, as before file-type)', pngBytes(40, 30, { animated: true }), 'png'],
  ['JPEG', jpeg, 'jpeg'],
  ['DOC (Compound File)', sampleFiles.doc(), 'doc'],
  ['DOCX (a real Word zip)', sampleFiles.docx(), 'docx'],
  ['XLSX named .docx', sampleFiles.xlsx(), null],
  ['DOCM (Word with macros)', sampleFiles.docm(), null],
  ['a zip without [Content_Types].xml but a word/ folder', zipBytes({ 'word/document.xml': '<document/>' }), null],
  ['random bytes after a zip signature', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), crypto.randomBytes(200)]), null],
  ['a PNG signature glued onto a DOCX', Buffer.concat([png.subarray(0, 8), sampleFiles.docx()]), null],
  ['a PNG signature glued onto HTML', Buffer.concat([png.subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')]), null],
  ['a PNG without IEND (truncated)', png.subarray(0, png.length - 12), null],
  ['a PNG of 14 000 × 14 000', pngBytes(14_000, 14_000), null],
  ['a JPEG without its end-of-image (truncated)', jpeg.subarray(0, jpeg.length - 2), null],
  ['a JPEG header glued onto HTML ending in FFD9', Buffer.concat([jpeg.subarray(0, 20), Buffer.from('<html>x</html>'), Buffer.from([0xff, 0xd9])]), null],
  ['a JPEG of 20 000 × 20 000', jpegBytes(20_000, 20_000), null],
  ['a PDF cut before %%EOF', sampleFiles.pdf().subarray(0, 30), null],
  ['a PDF header after 100 bytes of junk', Buffer.concat([Buffer.alloc(100, 0x20), sampleFiles.pdf()]), null],
  ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), null],
  ['GIF followed by a zip (GIFAR)', Buffer.concat([Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), sampleFiles.docx()]), null],
  ['WEBP', webp, null],
  ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), null],
  ['Windows executable', sampleFiles.exe(), null],
  ['7 bytes', Buffer.from('%PDF-1.'), null],
  ['empty', Buffer.alloc(0), null],
];

describe('sniffFileType (file-type + our structure checks)', () => {
  it.each(cases)('%s', async (_label, bytes, expected) => {
    expect(await sniffFileType(bytes)).toBe(expected);
  });
});

describe('pdfHasActiveContent reads the dictionaries, not the streams’ bytes', () => {
  /** A PDF with these objects (each `n 0 obj … endobj`), written as a writer would, offsets aside. */
  const pdf = (...objects: (string | Buffer)[]) =>
    Buffer.concat([
      Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
      ...objects.map((object, i) => Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(object) ? object : Buffer.from(object, 'latin1'), Buffer.from('\nendobj\n')])),
      Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n'),
    ]);
  const stream = (dictionary: string, bytes: Buffer) =>
    Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${bytes.length} >>\nstream\n`), bytes, Buffer.from('\nendstream')]);
  const catalog = '<< /Type /Catalog /Pages 2 0 R >>';
  const pages = '<< /Type /Pages /Kids [] /Count 0 >>';

  it('accepts a compressed stream whose bytes happen to spell /JS or /AA (a font, an image)', async () => {
    const noise = Buffer.concat([crypto.randomBytes(300), Buffer.from('/JS ('), crypto.randomBytes(300), Buffer.from('/AA\x00/OpenAction>'), crypto.randomBytes(300)]);
    const { pdfHasActiveContent } = await import('./file-type');
    expect(pdfHasActiveContent(pdf(catalog, pages, stream('/Filter /FlateDecode', noise)))).toBe(false);
  });

  it('refuses the same names in a dictionary, and in an object stream (PDF 1.5, compressed)', async () => {
    const { pdfHasActiveContent } = await import('./file-type');
    expect(pdfHasActiveContent(pdf('<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>', pages, '<< /S /JavaScript /JS (app.alert(1)) >>'))).toBe(true);
    const hidden = zlib.deflateSync(Buffer.from('4 0 5 40 << /S /JavaScript /JS (app.alert(1)) >> << /Type /Action >>'));
    expect(pdfHasActiveContent(pdf(catalog, pages, stream('/Type /ObjStm /N 2 /First 8 /Filter /FlateDecode', hidden)))).toBe(true);
    const plain = Buffer.from('4 0 << /Type /Catalog /AA << /O 5 0 R >> >>');
    expect(pdfHasActiveContent(pdf(catalog, pages, stream('/Type /ObjStm /N 1 /First 4', plain)))).toBe(true);
  });

  it('counts embedded files wherever their dictionaries are', async () => {
    const { pdfHasActiveContent } = await import('./file-type');
    const objects = zlib.deflateSync(Buffer.from('5 0 << /Type /EmbeddedFile /Subtype /text#2Fxml >>'));
    const file = pdf(catalog, pages, stream('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', objects));
    expect(pdfHasActiveContent(file)).toBe(true);
    expect(pdfHasActiveContent(file, { allowedEmbeddedFiles: 1 })).toBe(false);
  });
});
