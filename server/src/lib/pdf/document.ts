import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage, type RGB } from '@cantoo/pdf-lib';
import fontkit from '@cantoo/fontkit';
import { fontBytes } from './fonts';

/**
 * fontkit for pdf-lib, each typeface parsed once per process: pdf-lib asks its fontkit to parse the font's bytes for
 * every document, and fontkit reads the tables (cmap, metrics, OpenType features) again on the first text drawn, about
 * 55 ms of the 100 ms a one-page label took. A parsed font is read only, and each document still takes its own subset
 * of it (fontkit's createSubset), so documents share the parse and nothing else.
 */
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
const parsed = new Map<Uint8Array, ReturnType<Fontkit['create']>>();
const sharedFontkit: Fontkit = {
  create(bytes: Uint8Array, postscriptName?: string) {
    if (postscriptName !== undefined) return fontkit.create(bytes, postscriptName);
    let font = parsed.get(bytes);
    if (font === undefined) {
      font = fontkit.create(bytes);
      parsed.set(bytes, font);
    }
    return font;
  },
};

/**
 * The small toolkit every generated PDF is written with (fiscal receipt today; maintenance reports, label sheets and
 * payment statements next): A4 pages, the charity header, wrapped text in Liberation Sans (embedded, subset, so any
 * French text prints as typed: « », accents, the narrow no-break spaces of fr-FR numbers), key/value blocks, tables that
 * continue on the next page, PNG/JPEG images fitted to a box, and a footer with page numbers and a fingerprint line.
 * Documents are pure functions `build<Document>(data) -> Promise<Uint8Array>` on top of it (style.md).
 */

/** A4 in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;

export const pdfColors = {
  red: rgb(0.78, 0.11, 0.16),
  ink: rgb(0.1, 0.1, 0.12),
  muted: rgb(0.4, 0.4, 0.45),
  line: rgb(0.85, 0.85, 0.88),
  shade: rgb(0.95, 0.95, 0.96),
} as const;

export interface PdfInfo {
  title: string;
  author: string;
  /** The application that wrote it (PRODUCT_NAME): creator and producer. */
  creator: string;
  subject?: string;
  createdAt: Date;
  language?: string;
}

export interface TextOptions {
  size?: number;
  bold?: boolean;
  color?: RGB;
  x?: number;
  maxWidth?: number;
  /** Space under each line, in points. */
  gap?: number;
}

export interface KeyValue {
  label: string;
  value: string;
  bold?: boolean;
}

export interface TableColumn {
  header: string;
  /** Share of the content width (the shares are normalised). */
  width: number;
  align?: 'left' | 'right';
}

export interface FooterOptions {
  /** Left of the footer, on every page ("Document généré le … par Maillon."). */
  note?: string;
  /** "Page 1 sur 3" on the right. */
  pageNumbers?: boolean;
  /** A last small line (a document fingerprint, a reference). */
  fingerprint?: string;
}

/** Where the footer starts: content never goes below this line. */
const CONTENT_BOTTOM = 70;
const FOOTER_Y = 40;
const FINGERPRINT_Y = 28;

/** Breakable spaces only: the no-break spaces of fr-FR amounts and dates keep their words together. */
const BREAKABLE = / +/;
// eslint-disable-next-line no-control-regex -- control characters are never printable
const CONTROL = /[\u0000-\u001f\u007f]/g;

export class PdfWriter {
  page: PDFPage;
  /** The baseline cursor, from the bottom of the page (PDF coordinates). */
  y: number;
  private readonly glyphs = new Map<PDFFont, Set<number>>();

  private constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    readonly margin: number,
  ) {
    this.page = doc.addPage([A4.width, A4.height]);
    this.y = A4.height - margin;
  }

  /** A new A4 document with its metadata and the two embedded fonts, on its first page. */
  static async create(info: PdfInfo, { margin = 56 }: { margin?: number } = {}): Promise<PdfWriter> {
    const doc = await PDFDocument.create();
    doc.registerFontkit(sharedFontkit);
    doc.setTitle(info.title, { showInWindowTitleBar: true });
    doc.setAuthor(info.author);
    doc.setCreator(info.creator);
    doc.setProducer(info.creator);
    if (info.subject) doc.setSubject(info.subject);
    doc.setLanguage(info.language ?? 'fr-FR');
    doc.setCreationDate(info.createdAt);
    doc.setModificationDate(info.createdAt);
    const fonts = fontBytes();
    const regular = await doc.embedFont(fonts.regular, { subset: true });
    const bold = await doc.embedFont(fonts.bold, { subset: true });
    return new PdfWriter(doc, regular, bold, margin);
  }

  /** Width available between the margins. */
  get width(): number {
    return A4.width - 2 * this.margin;
  }

  addPage(): void {
    this.page = this.doc.addPage([A4.width, A4.height]);
    this.y = A4.height - this.margin;
  }

  /** Starts a new page when less than `height` points are left above the footer. */
  ensureSpace(height: number): void {
    if (this.y - height < CONTENT_BOTTOM) this.addPage();
  }

  space(height: number): void {
    this.y -= height;
  }

  /** The text as this font can draw it: control characters dropped, a glyph the font lacks (an emoji) becomes "?". */
  printable(font: PDFFont, value: string): string {
    let glyphs = this.glyphs.get(font);
    if (!glyphs) {
      glyphs = new Set(font.getCharacterSet());
      this.glyphs.set(font, glyphs);
    }
    let out = '';
    for (const ch of value.replace(CONTROL, '')) out += glyphs.has(ch.codePointAt(0)!) ? ch : '?';
    return out;
  }

  /** Lines of at most `width` points; paragraphs on "\n"; a word wider than the line is cut. */
  wrap(value: string, { size = 11, bold = false, width = this.width }: { size?: number; bold?: boolean; width?: number } = {}): string[] {
    const font = bold ? this.bold : this.regular;
    const fits = (text: string) => font.widthOfTextAtSize(text, size) <= width;
    const lines: string[] = [];
    for (const paragraph of value.split(/\r\n?|\n/)) {
      let current = '';
      for (const word of this.printable(font, paragraph.replace(/\t/g, ' ')).split(BREAKABLE).filter(Boolean)) {
        const candidate = current ? `${current} ${word}` : word;
        if (fits(candidate)) {
          current = candidate;
          continue;
        }
        if (current) lines.push(current);
        current = word;
        while (!fits(current) && current.length > 1) {
          let cut = current.length - 1;
          while (cut > 1 && !fits(current.slice(0, cut))) cut -= 1;
          lines.push(current.slice(0, cut));
          current = current.slice(cut);
        }
      }
      lines.push(current);
    }
    return lines;
  }

  /** Wrapped text at the cursor; moves to a new page between lines when needed. */
  text(value: string, { size = 11, bold = false, color = pdfColors.ink, x = this.margin, maxWidth = this.width, gap = 4 }: TextOptions = {}): void {
    const font = bold ? this.bold : this.regular;
    for (const line of this.wrap(value, { size, bold, width: maxWidth })) {
      this.ensureSpace(size + gap);
      this.y -= size;
      if (line) this.page.drawText(line, { x, y: this.y, size, font, color });
      this.y -= gap;
    }
  }

  /** A thin horizontal line across the content width, with `space` above and below. */
  rule(space = 10): void {
    this.y -= space;
    this.page.drawLine({ start: { x: this.margin, y: this.y }, end: { x: this.margin + this.width, y: this.y }, thickness: 0.8, color: pdfColors.line });
    this.y -= space;
  }

  /**
   * The charity header: a red band across the top, the charity's name (CHARITY_NAME) and an optional line under it;
   * the product's name (PRODUCT_NAME), when given, on the right.
   */
  charityHeader({ charityName, productName, subtitle }: { charityName: string; productName?: string; subtitle?: string }): void {
    this.page.drawRectangle({ x: 0, y: A4.height - 10, width: A4.width, height: 10, color: pdfColors.red });
    this.y -= 8;
    const top = this.y;
    this.text(charityName, { size: 16, bold: true, color: pdfColors.red, maxWidth: productName ? this.width - 140 : this.width });
    if (productName) {
      const name = this.printable(this.regular, productName);
      const width = this.regular.widthOfTextAtSize(name, 9.5);
      this.page.drawText(name, { x: this.margin + this.width - width, y: top - 16, size: 9.5, font: this.regular, color: pdfColors.muted });
    }
    if (subtitle) this.text(subtitle, { size: 9.5, color: pdfColors.muted });
  }

  /** Label on the left (muted), value on the right; each pair stays on one page. */
  keyValues(rows: KeyValue[], { labelWidth = 190, size = 10.5 }: { labelWidth?: number; size?: number } = {}): void {
    for (const row of rows) {
      const labelLines = this.wrap(row.label, { size, width: labelWidth - 10 }).length;
      const valueLines = this.wrap(row.value, { size, bold: row.bold, width: this.width - labelWidth }).length;
      this.ensureSpace(Math.max(labelLines, valueLines) * (size + 4) + 3);
      const top = this.y;
      this.text(row.label, { size, color: pdfColors.muted, maxWidth: labelWidth - 10 });
      const afterLabel = this.y;
      this.y = top;
      this.text(row.value, { size, bold: row.bold, x: this.margin + labelWidth, maxWidth: this.width - labelWidth });
      this.y = Math.min(this.y, afterLabel) - 3;
    }
  }

  /** A table with a shaded header row, repeated at the top of each page it continues on. */
  table(columns: TableColumn[], rows: string[][], { size = 9.5, padding = 4 }: { size?: number; padding?: number } = {}): void {
    const total = columns.reduce((sum, column) => sum + column.width, 0);
    const widths = columns.map((column) => (column.width / total) * this.width);
    const lineHeight = size + 3;
    const drawRow = (cells: string[], { header }: { header: boolean }) => {
      const wrapped = cells.map((cell, i) => this.wrap(cell, { size, bold: header, width: widths[i]! - 2 * padding }));
      const height = Math.max(...wrapped.map((lines) => lines.length)) * lineHeight + 2 * padding;
      if (header) this.page.drawRectangle({ x: this.margin, y: this.y - height, width: this.width, height, color: pdfColors.shade });
      let x = this.margin;
      wrapped.forEach((lines, i) => {
        const font = header ? this.bold : this.regular;
        lines.forEach((line, k) => {
          const lineWidth = font.widthOfTextAtSize(line, size);
          const left = columns[i]!.align === 'right' ? x + widths[i]! - padding - lineWidth : x + padding;
          this.page.drawText(line, { x: left, y: this.y - padding - size - k * lineHeight + 2, size, font, color: pdfColors.ink });
        });
        x += widths[i]!;
      });
      this.y -= height;
      this.page.drawLine({ start: { x: this.margin, y: this.y }, end: { x: this.margin + this.width, y: this.y }, thickness: 0.5, color: pdfColors.line });
      return height;
    };
    const headers = columns.map((column) => column.header);
    const heightOf = (cells: string[], header: boolean) =>
      Math.max(...cells.map((cell, i) => this.wrap(cell, { size, bold: header, width: widths[i]! - 2 * padding }).length)) * lineHeight + 2 * padding;
    this.ensureSpace(heightOf(headers, true) + (rows[0] ? heightOf(rows[0], false) : 0));
    drawRow(headers, { header: true });
    for (const row of rows) {
      const height = heightOf(row, false);
      if (this.y - height < CONTENT_BOTTOM) {
        this.addPage();
        drawRow(headers, { header: true });
      }
      drawRow(row, { header: false });
    }
  }

  /** Embeds a PNG or JPEG (decided from its bytes); other bytes are refused. */
  async embedImage(bytes: Uint8Array): Promise<PDFImage> {
    if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return this.doc.embedPng(bytes);
    if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return this.doc.embedJpg(bytes);
    throw new Error('Image PNG ou JPEG attendue');
  }

  /**
   * An image fitted inside a box of `maxWidth` × `maxHeight` points (ratio kept, never enlarged), at the cursor;
   * returns the size drawn.
   */
  async image(
    bytes: Uint8Array | PDFImage,
    { maxWidth = this.width, maxHeight = 200, x, align = 'left' }: { maxWidth?: number; maxHeight?: number; x?: number; align?: 'left' | 'center' } = {},
  ): Promise<{ width: number; height: number }> {
    const image = bytes instanceof Uint8Array ? await this.embedImage(bytes) : bytes;
    const scale = Math.min(maxWidth / image.width, maxHeight / image.height, 1);
    const width = image.width * scale;
    const height = image.height * scale;
    this.ensureSpace(height);
    const left = x ?? (align === 'center' ? this.margin + (this.width - width) / 2 : this.margin);
    this.y -= height;
    this.page.drawImage(image, { x: left, y: this.y, width, height });
    return { width, height };
  }

  /** Draws the footer on every page and returns the file. */
  async finish({ note, pageNumbers = false, fingerprint }: FooterOptions = {}): Promise<Uint8Array> {
    const pages = this.doc.getPages();
    pages.forEach((page, index) => {
      if (note) page.drawText(this.printable(this.regular, note), { x: this.margin, y: FOOTER_Y, size: 8.5, font: this.regular, color: pdfColors.muted });
      if (pageNumbers) {
        const label = `Page ${index + 1} sur ${pages.length}`;
        const width = this.regular.widthOfTextAtSize(label, 8.5);
        page.drawText(label, { x: A4.width - this.margin - width, y: FOOTER_Y, size: 8.5, font: this.regular, color: pdfColors.muted });
      }
      if (fingerprint) {
        page.drawText(this.printable(this.regular, fingerprint), { x: this.margin, y: FINGERPRINT_Y, size: 7, font: this.regular, color: pdfColors.muted });
      }
    });
    return this.doc.save({ useObjectStreams: false });
  }
}
