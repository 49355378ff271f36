import zlib from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFRef, PDFString, type PDFObject } from '@cantoo/pdf-lib';

/**
 * The files embedded in a PDF (its /EmbeddedFiles name tree and the PDF/A-3 /AF array): how a Factur-X or ZUGFeRD
 * invoice carries its XML. Reading an uploaded PDF is reading hostile bytes, so every decompression is bounded: the
 * object and cross-reference streams pdf-lib inflates while loading are measured first with zlib's output limit, and
 * an attachment larger than `maxBytes` once inflated is refused, never allocated.
 */

export interface PdfAttachment {
  /** The file name (/UF, else /F), as written in the PDF. */
  name: string;
  /** /AFRelationship (Data, Alternative, Source...), when given. */
  relationship: string | null;
  /** The MIME type of the embedded stream (/Subtype), e.g. text/xml. */
  mimeType: string | null;
  /** The inflated content, or null when it could not be read (unsupported filter, corrupt or too large). */
  content: Uint8Array | null;
}

/** The PDF cannot be read: its structure is broken (`unparsable`) or would inflate beyond the limits (`too-large`). */
export class PdfReadError extends Error {
  constructor(
    readonly reason: 'unparsable' | 'too-large',
    message: string,
  ) {
    super(message);
  }
}

/** What the loader may inflate in total (object and xref streams); real invoices use a few hundred kilobytes. */
const MAX_STRUCTURE_BYTES = 32 * 1024 * 1024;
const MAX_NAME_TREE_DEPTH = 12;
const MAX_ATTACHMENTS = 50;

type Inflated = { data: Buffer } | { problem: 'too-large' | 'corrupt' };

/** Inflates at most `limit` bytes: a decompression bomb stops at the limit instead of filling the memory. */
function inflate(data: Uint8Array, limit: number): Inflated {
  try {
    return { data: zlib.inflateSync(data, { maxOutputLength: limit, finishFlush: zlib.constants.Z_SYNC_FLUSH }) };
  } catch (error) {
    return { problem: (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'corrupt' };
  }
}

/**
 * Before pdf-lib loads the file: finds every object stream (/Type /ObjStm) and cross-reference stream (/Type /XRef),
 * which pdf-lib inflates while loading, without a limit, and checks that together they inflate to a bounded size.
 */
function assertBoundedStructure(bytes: Uint8Array): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('latin1');
  let budget = MAX_STRUCTURE_BYTES;
  for (const match of text.matchAll(/\/Type\s*\/(?:ObjStm|XRef)\b/g)) {
    const streamAt = text.indexOf('stream', match.index);
    if (streamAt < 0) continue;
    let start = streamAt + 'stream'.length;
    if (text[start] === '\r') start += 1;
    if (text[start] === '\n') start += 1;
    const end = text.indexOf('endstream', start);
    if (end < 0) continue;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf(' obj', match.index)), streamAt);
    if (!/\/FlateDecode\b/.test(dictionary)) continue;
    const result = inflate(buffer.subarray(start, end), budget);
    // Corrupt data makes pdf-lib fail on its own; too much data is refused before it allocates anything.
    if ('problem' in result) {
      if (result.problem === 'too-large') throw new PdfReadError('too-large', 'PDF structure too large once inflated');
      continue;
    }
    budget -= result.data.length;
  }
}

function decodeText(value: PDFObject | undefined): string | null {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  if (value instanceof PDFName) return value.decodeText();
  return null;
}

function filtersOf(dict: PDFDict): string[] {
  const filter = dict.lookup(PDFName.of('Filter'));
  if (filter instanceof PDFName) return [filter.decodeText()];
  if (filter instanceof PDFArray) return filter.asArray().map((f) => (f instanceof PDFName ? f.decodeText() : '?'));
  return [];
}

function readStream(stream: PDFRawStream, maxBytes: number): Uint8Array | null {
  const filters = filtersOf(stream.dict);
  if (filters.length === 0) return stream.contents.length <= maxBytes ? stream.contents : null;
  if (filters.length !== 1 || filters[0] !== 'FlateDecode') return null;
  const result = inflate(stream.contents, maxBytes);
  return 'data' in result ? result.data : null;
}

/** Lists the embedded files of a PDF. Throws PdfReadError when the bytes cannot be read as a PDF. */
export async function listPdfAttachments(bytes: Uint8Array, { maxBytes = 5 * 1024 * 1024 }: { maxBytes?: number } = {}): Promise<PdfAttachment[]> {
  assertBoundedStructure(bytes);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch (error) {
    throw new PdfReadError('unparsable', error instanceof Error ? error.message : 'unreadable PDF');
  }
  const context = doc.context;
  const specs: PDFDict[] = [];
  const seen = new Set<PDFObject>();
  const addSpec = (value: PDFObject | undefined) => {
    const key = value instanceof PDFRef ? value : undefined;
    const dict = value instanceof PDFRef ? context.lookup(value) : value;
    if (!(dict instanceof PDFDict) || seen.has(key ?? dict) || specs.length >= MAX_ATTACHMENTS) return;
    seen.add(key ?? dict);
    specs.push(dict);
  };
  const walk = (node: PDFObject | undefined, depth: number) => {
    const dict = node instanceof PDFRef ? context.lookup(node) : node;
    if (!(dict instanceof PDFDict) || depth > MAX_NAME_TREE_DEPTH) return;
    const names = dict.lookup(PDFName.of('Names'));
    if (names instanceof PDFArray) {
      const items = names.asArray();
      for (let i = 1; i < items.length; i += 2) addSpec(items[i]);
    }
    const kids = dict.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) for (const kid of kids.asArray()) walk(kid, depth + 1);
  };

  try {
    const namesDict = doc.catalog.lookup(PDFName.of('Names'));
    if (namesDict instanceof PDFDict) walk(namesDict.get(PDFName.of('EmbeddedFiles')), 0);
    const af = doc.catalog.lookup(PDFName.of('AF'));
    if (af instanceof PDFArray) for (const spec of af.asArray()) addSpec(spec);
  } catch (error) {
    throw new PdfReadError('unparsable', error instanceof Error ? error.message : 'unreadable PDF');
  }

  const attachments: PdfAttachment[] = [];
  const streams = new Set<PDFObject>();
  for (const spec of specs) {
    const ef = spec.lookup(PDFName.of('EF'));
    if (!(ef instanceof PDFDict)) continue;
    const ref = ef.get(PDFName.of('UF')) ?? ef.get(PDFName.of('F'));
    if (ref && streams.has(ref)) continue;
    if (ref) streams.add(ref);
    const stream = ref instanceof PDFRef ? context.lookup(ref) : ref;
    const name = decodeText(spec.lookup(PDFName.of('UF'))) ?? decodeText(spec.lookup(PDFName.of('F'))) ?? '';
    attachments.push({
      name,
      relationship: decodeText(spec.lookup(PDFName.of('AFRelationship'))),
      mimeType: stream instanceof PDFRawStream ? decodeText(stream.dict.lookup(PDFName.of('Subtype'))) : null,
      content: stream instanceof PDFRawStream ? readStream(stream, maxBytes) : null,
    });
  }
  return attachments;
}
