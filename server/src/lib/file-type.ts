import zlib from 'node:zlib';
import { fileTypeFromBuffer } from 'file-type';

/**
 * What an uploaded file is, decided from its bytes, never from its name or Content-Type. The magic numbers (and the
 * zip walk that tells a Word document from another Office or zip file) are file-type's; on top of them we check the
 * structure a real file of that type has, so a truncated file, a header glued onto something else or a decompression
 * bomb is refused.
 */
export type FileType = 'png' | 'jpeg' | 'pdf' | 'doc' | 'docx';

/** file-type's extensions for the types we accept: an APNG is a PNG, a .doc is a Compound File Binary container. */
const ACCEPTED: Record<string, FileType> = { png: 'png', apng: 'png', jpg: 'jpeg', pdf: 'pdf', cfb: 'doc', docx: 'docx' };

/** Larger images are refused: nobody scans an identity card at 100 megapixels (decompression bombs). */
export const MAX_IMAGE_PIXELS = 50_000_000;
const MAX_IMAGE_SIDE = 12_000;

function isSaneImage(width: number, height: number): boolean {
  return width > 0 && height > 0 && width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && width * height <= MAX_IMAGE_PIXELS;
}

/** A PNG: an IHDR chunk first with sane dimensions, and an IEND chunk at the end. */
function isWholePng(buffer: Buffer): boolean {
  if (buffer.length < 45 || buffer.toString('latin1', 12, 16) !== 'IHDR') return false;
  if (!isSaneImage(buffer.readUInt32BE(16), buffer.readUInt32BE(20))) return false;
  return buffer.toString('latin1', buffer.length - 8, buffer.length - 4) === 'IEND';
}

/** A JPEG: end-of-image, and a start-of-frame with sane dimensions before the scan. */
function isWholeJpeg(buffer: Buffer): boolean {
  if (buffer[buffer.length - 2] !== 0xff || buffer[buffer.length - 1] !== 0xd9) return false;
  let offset = 2;
  while (offset + 9 < buffer.length) {
    if (buffer[offset] !== 0xff) return false;
    const marker = buffer[offset + 1]!;
    const length = buffer.readUInt16BE(offset + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return isSaneImage(buffer.readUInt16BE(offset + 7), buffer.readUInt16BE(offset + 5));
    }
    if (marker === 0xda) return false;
    offset += 2 + length;
  }
  return false;
}

/** A real PDF ends with %%EOF (allowing what some writers append after it); a truncated one is refused. */
function isWholePdf(buffer: Buffer): boolean {
  return buffer.subarray(Math.max(0, buffer.length - 1024)).toString('latin1').includes('%%EOF');
}

const STRUCTURE: Record<FileType, (buffer: Buffer) => boolean> = {
  png: isWholePng,
  jpeg: isWholeJpeg,
  pdf: isWholePdf,
  // file-type already walked the zip and read [Content_Types].xml: a Word document's main part, not a sheet or a deck.
  docx: () => true,
  doc: () => true,
};

/** The accepted type of these bytes, or null (unknown, another type, or not a whole, sane file of its type). */
export async function sniffFileType(buffer: Buffer): Promise<FileType | null> {
  if (buffer.length < 8) return null;
  let detected: string | undefined;
  try {
    detected = (await fileTypeFromBuffer(buffer))?.ext;
  } catch {
    // A malformed container (a broken zip, say) is simply not a file we accept.
    return null;
  }
  const type = detected ? ACCEPTED[detected] : undefined;
  return type && STRUCTURE[type](buffer) ? type : null;
}

/**
 * PDFs that carry scripts, auto-actions or embedded files are refused: an invoice or CV never needs them. The one
 * exception is an invoice's Factur-X XML, which the caller has read and allows by count (`allowedEmbeddedFiles`).
 */
export function pdfHasActiveContent(buffer: Buffer, { allowedEmbeddedFiles = 0 }: { allowedEmbeddedFiles?: number } = {}): boolean {
  const parts = pdfDictionaryText(buffer);
  if (parts.some((text) => /\/(JavaScript|JS|OpenAction|AA|Launch|RichMedia)\b/.test(text))) return true;
  const embedded = parts.reduce((n, text) => n + (text.match(/\/EmbeddedFile\b/g)?.length ?? 0), 0);
  return embedded > allowedEmbeddedFiles;
}

/** Bytes of an object stream inflated at most (a PDF's dictionaries are small; a bomb stops there). */
const OBJECT_STREAM_MAX = 16 * 1024 * 1024;

/**
 * Where a PDF's dictionaries are written: its text outside the streams, and its object streams (`/Type /ObjStm`,
 * where PDF 1.5+ writers such as pdf-lib put them), inflated. A stream's other bytes (a compressed font, an image, page
 * content) may hold any sequence — `/JS` or `/AA` included — and say nothing about actions: reading them made our own
 * generated PV look scripted now and then (a refused visit report, seen in a Playwright run).
 */
function pdfDictionaryText(buffer: Buffer): string[] {
  const text = buffer.toString('latin1');
  const parts: string[] = [];
  const streamStart = /(?<![A-Za-z])stream\r?\n/g;
  let outside = '';
  let from = 0;
  for (let match = streamStart.exec(text); match; match = streamStart.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    const dictionary = text.slice(Math.max(text.lastIndexOf(' obj', match.index), from), match.index);
    outside += text.slice(from, match.index);
    if (/\/Type\s*\/ObjStm\b/.test(dictionary)) parts.push(inflatedText(buffer.subarray(start, end), dictionary));
    from = end + 'endstream'.length;
    streamStart.lastIndex = from;
  }
  parts.push(outside + text.slice(from));
  return parts;
}

/** An object stream's text: inflated when it says FlateDecode (and inflates), else as it is. */
function inflatedText(bytes: Buffer, dictionary: string): string {
  if (!/\/FlateDecode\b/.test(dictionary)) return bytes.toString('latin1');
  try {
    return zlib.inflateSync(bytes, { maxOutputLength: OBJECT_STREAM_MAX }).toString('latin1');
  } catch {
    // Truncated or not zlib after all: its raw bytes, as before.
    return bytes.toString('latin1');
  }
}
