import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatDate, formatEuros } from '@maillon/common/format';

export interface FiscalReceiptData {
  charityName: string;
  productName: string;
  payee: {
    firstName: string;
    lastName: string;
    companyName: string | null;
    siret: string | null;
    address: string | null;
    postalCode: string | null;
    city: string | null;
  };
  missionTitle: string | null;
  invoiceReference: string;
  transferReference: string;
  transferDate: Date;
  bankAccountLast4: string | null;
  amountCents: number;
  generatedAt: Date;
}

const RED = rgb(0.78, 0.11, 0.16);
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const LINE = rgb(0.85, 0.85, 0.88);

/** The standard PDF fonts only know WinAnsi: any other character (emoji, CJK…) becomes "?" instead of failing. */
function encodable(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text.replace(/[\u202f\u00a0]/g, ' ')) {
    // eslint-disable-next-line no-control-regex -- control characters are never printable
    if (/[\u0000-\u001f\u007f]/.test(ch)) continue;
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const candidate = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width || !current) current = candidate;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  return lines.length ? lines : [''];
}

class Writer {
  y: number;
  constructor(
    readonly page: PDFPage,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    readonly margin: number,
  ) {
    this.y = page.getHeight() - margin;
  }
  get width() {
    return this.page.getWidth() - 2 * this.margin;
  }
  text(value: string, { size = 11, font = this.regular, color = INK, x = this.margin, maxWidth = this.width, gap = 4 } = {}) {
    for (const line of wrap(font, encodable(font, value), size, maxWidth)) {
      this.y -= size;
      this.page.drawText(line, { x, y: this.y, size, font, color });
      this.y -= gap;
    }
  }
  rule(space = 10) {
    this.y -= space;
    this.page.drawLine({ start: { x: this.margin, y: this.y }, end: { x: this.margin + this.width, y: this.y }, thickness: 0.8, color: LINE });
    this.y -= space;
  }
  row(label: string, value: string, { bold = false } = {}) {
    const labelWidth = 190;
    const top = this.y;
    this.text(label, { size: 10.5, color: MUTED, maxWidth: labelWidth - 10 });
    const afterLabel = this.y;
    this.y = top;
    this.text(value, { size: 10.5, font: bold ? this.bold : this.regular, x: this.margin + labelWidth, maxWidth: this.width - labelWidth });
    this.y = Math.min(this.y, afterLabel) - 3;
  }
}

/** A one-page A4 receipt of a paid transfer (decisions.md §4 "Reçu fiscal"). */
export async function buildFiscalReceiptPdf(data: FiscalReceiptData): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const title = `Reçu fiscal ${data.transferReference}`;
  pdf.setTitle(title, { showInWindowTitleBar: true });
  pdf.setAuthor(data.charityName);
  pdf.setCreator(data.productName);
  pdf.setProducer(data.productName);
  pdf.setSubject(`Paiement de la facture ${data.invoiceReference}`);
  pdf.setLanguage('fr-FR');
  pdf.setCreationDate(data.generatedAt);
  pdf.setModificationDate(data.generatedAt);

  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const w = new Writer(page, regular, bold, 56);

  page.drawRectangle({ x: 0, y: page.getHeight() - 10, width: page.getWidth(), height: 10, color: RED });
  w.y -= 8;
  w.text(data.charityName, { size: 16, font: bold, color: RED });
  w.text('Émetteur du reçu', { size: 9.5, color: MUTED });
  w.y -= 14;
  w.text('Reçu fiscal', { size: 24, font: bold });
  w.text(`Reçu n° ${data.transferReference} du ${formatDate(data.transferDate)}`, { size: 11, color: MUTED });
  w.rule(14);

  w.text('Bénéficiaire', { size: 12, font: bold, gap: 8 });
  const fullName = `${data.payee.firstName} ${data.payee.lastName}`.trim();
  w.row('Technicien', fullName);
  w.row('Entreprise', data.payee.companyName || 'Non renseignée');
  w.row('SIRET', data.payee.siret || 'Non renseigné');
  const address = [data.payee.address, [data.payee.postalCode, data.payee.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  if (address) w.row('Adresse', address);
  w.rule(14);

  w.text('Paiement', { size: 12, font: bold, gap: 8 });
  if (data.missionTitle) w.row('Mission', data.missionTitle);
  w.row('Référence de la facture', data.invoiceReference);
  w.row('Référence du virement', data.transferReference);
  w.row('Date du virement', formatDate(data.transferDate));
  if (data.bankAccountLast4) w.row('Compte crédité', `•••• ${data.bankAccountLast4}`);
  w.y -= 6;
  w.row('Montant versé', formatEuros(data.amountCents / 100), { bold: true });
  w.rule(14);

  w.text(
    'Mention : tous les montants de prestation sont exprimés hors taxes (montants HT). Le montant versé correspond au montant validé de la mission, au prorata des défibrillateurs traités.',
    { size: 10, color: INK },
  );
  w.y -= 10;
  w.text(
    `Nous certifions que ${data.charityName} a versé la somme indiquée ci-dessus au bénéficiaire, en règlement de la facture ${data.invoiceReference}.`,
    { size: 10 },
  );

  const footer = encodable(regular, `Document généré le ${formatDate(data.generatedAt)} par ${data.productName}.`);
  page.drawText(footer, { x: 56, y: 40, size: 8.5, font: regular, color: MUTED });

  return pdf.save({ useObjectStreams: false });
}
