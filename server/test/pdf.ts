import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface ReadPdf {
  pageCount: number;
  /**
   * Each page's text, one line per text-showing operation (each drawn line), with the exact characters the font's
   * ToUnicode map gives: pdf.js's getTextContent() turns every Unicode space (U+00A0, U+202F) into " ", so it could not
   * tell a typeset amount from a plain one.
   */
  pages: string[];
  /** The names of the fonts the pages select (BaseFont, e.g. "LiberationSans-2668"). */
  fonts: string[];
  /** How many images each page paints. */
  images: number[];
  info: Record<string, unknown>;
}

interface Glyph {
  unicode?: string;
}

/** Reads a PDF with Mozilla's pdf.js, a reader independent of the library that wrote it. */
export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, fontExtraProperties: true, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    const fonts = new Set<string>();
    const images: number[] = [];
    for (let n = 1; n <= doc.numPages; n += 1) {
      const page = await doc.getPage(n);
      const { fnArray, argsArray } = await page.getOperatorList();
      const lines: string[] = [];
      let painted = 0;
      fnArray.forEach((fn, i) => {
        const args = argsArray[i] as unknown[];
        if (fn === OPS.showText || fn === OPS.showSpacedText) {
          const glyphs = (args[0] as unknown[]).filter((g): g is Glyph => typeof g === 'object' && g !== null);
          lines.push(glyphs.map((g) => g.unicode ?? '').join(''));
        } else if (fn === OPS.setFont) {
          const font = page.commonObjs.has(args[0] as string) ? (page.commonObjs.get(args[0] as string) as { name?: string }) : null;
          if (font?.name) fonts.add(font.name);
        } else if (fn === OPS.paintImageXObject) {
          painted += 1;
        }
      });
      pages.push(lines.join('\n'));
      images.push(painted);
    }
    const { info } = await doc.getMetadata();
    return { pageCount: doc.numPages, pages, fonts: [...fonts], images, info: info as Record<string, unknown> };
  } finally {
    await doc.destroy();
  }
}
