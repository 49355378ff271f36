import { rgb, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import { formatDate } from '@maillon/common/format';
import { formatDay } from '@maillon/common/device-rules';
import { A4, PdfWriter, pdfColors } from '../../lib/pdf/document';

/**
 * The maintenance label stuck on or next to the defibrillator's cabinet (arrêté du 29 octobre 2019 relatif à la
 * signalétique des DAE): who operates it and how to reach them, the next maintenance date, the expiry dates of the
 * battery and the electrodes, and the device it belongs to. Printed 8 to an A4 sheet (2 × 4, 90 × 60 mm each) with cut
 * marks: one label for a device, every registered device for a lot's sheet. A date not known yet prints as a line to
 * fill in by hand.
 */

export interface LabelDevice {
  serialNumber: string;
  manufacturer: string | null;
  model: string | null;
  siteName: string | null;
  operatorName: string | null;
  operatorPhone: string | null;
  operatorEmail: string | null;
  batteryExpiry: string | null;
  adultPadsExpiry: string | null;
  pediatricPadsPresent: boolean | null;
  pediatricPadsExpiry: string | null;
  lastMaintenanceOn: string | null;
  nextMaintenanceDue: string | null;
}

export interface LabelSheetData {
  title: string;
  charityName: string;
  productName: string;
  generatedAt: Date;
  devices: LabelDevice[];
}

const MM = 72 / 25.4;
const LABEL_W = 90 * MM;
const LABEL_H = 60 * MM;
const COLUMNS = 2;
const ROWS = 4;
const GAP_X = 10 * MM;
const GAP_Y = 7 * MM;
const LEFT = (A4.width - COLUMNS * LABEL_W - (COLUMNS - 1) * GAP_X) / 2;
const TOP = A4.height - (A4.height - ROWS * LABEL_H - (ROWS - 1) * GAP_Y) / 2;
const PAD = 3 * MM;
const BLANK = '___ / ___ / ______';

/** Text cut with an ellipsis to fit the width. */
function fit(pdf: PdfWriter, font: PDFFont, text: string, size: number, width: number): string {
  let value = pdf.printable(font, text);
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  while (value.length > 1 && font.widthOfTextAtSize(`${value}…`, size) > width) value = value.slice(0, -1);
  return `${value.trimEnd()}…`;
}

function cutMarks(page: PDFPage, x: number, y: number): void {
  const mark = 4 * MM;
  const off = 1.5 * MM;
  const line = (x1: number, y1: number, x2: number, y2: number) =>
    page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.4, color: pdfColors.muted });
  for (const [cx, sx] of [[x, -1], [x + LABEL_W, 1]] as const) {
    for (const [cy, sy] of [[y, -1], [y + LABEL_H, 1]] as const) {
      line(cx + sx * off, cy, cx + sx * (off + mark), cy);
      line(cx, cy + sy * off, cx, cy + sy * (off + mark));
    }
  }
}

function drawLabel(pdf: PdfWriter, data: LabelSheetData, device: LabelDevice, x: number, y: number): void {
  const page = pdf.page;
  const inner = LABEL_W - 2 * PAD;
  page.drawRectangle({ x, y, width: LABEL_W, height: LABEL_H, borderColor: pdfColors.ink, borderWidth: 0.8 });
  const band = 17;
  page.drawRectangle({ x, y: y + LABEL_H - band, width: LABEL_W, height: band, color: pdfColors.red });
  page.drawText(fit(pdf, pdf.bold, 'DÉFIBRILLATEUR · SUIVI DE MAINTENANCE', 8.5, inner), { x: x + PAD, y: y + LABEL_H - 12, size: 8.5, font: pdf.bold, color: rgb(1, 1, 1) });

  let cursor = y + LABEL_H - band - 11;
  const line = (label: string, value: string, { size = 8.4, bold = false } = {}) => {
    const labelText = `${label} : `;
    const labelWidth = pdf.regular.widthOfTextAtSize(labelText, size);
    page.drawText(labelText, { x: x + PAD, y: cursor, size, font: pdf.regular, color: pdfColors.muted });
    page.drawText(fit(pdf, bold ? pdf.bold : pdf.regular, value, size, inner - labelWidth), { x: x + PAD + labelWidth, y: cursor, size, font: bold ? pdf.bold : pdf.regular, color: pdfColors.ink });
    cursor -= size + 4.2;
  };
  const name = [device.manufacturer, device.model].filter(Boolean).join(' ') || 'Non renseigné';
  line('Appareil', name, { bold: true });
  line('N° de série', device.serialNumber);
  line('Exploitant', device.operatorName || '________________________');
  const contact = [device.operatorPhone, device.operatorEmail].filter(Boolean).join(' · ');
  line('Contact', contact || '________________________');

  cursor -= 3;
  page.drawText('PROCHAINE MAINTENANCE', { x: x + PAD, y: cursor, size: 8, font: pdf.bold, color: pdfColors.red });
  cursor -= 19;
  page.drawText(device.nextMaintenanceDue ? formatDay(device.nextMaintenanceDue) : BLANK, { x: x + PAD, y: cursor, size: 19, font: pdf.bold, color: pdfColors.ink });
  cursor -= 15;

  const expiry = (label: string, day: string | null) => line(label, day ? formatDay(day) : BLANK, { bold: Boolean(day) });
  expiry('Batterie, à remplacer avant le', device.batteryExpiry);
  expiry('Électrodes adultes, avant le', device.adultPadsExpiry);
  if (device.pediatricPadsPresent === false) line('Électrodes pédiatriques', 'absentes');
  else expiry('Électrodes pédiatriques, avant le', device.pediatricPadsPresent ? device.pediatricPadsExpiry : null);

  const footer = `Dernière maintenance : ${device.lastMaintenanceOn ? formatDay(device.lastMaintenanceOn) : BLANK} · ${data.charityName}`;
  page.drawText(fit(pdf, pdf.regular, footer, 6.8, inner), { x: x + PAD, y: y + PAD - 1, size: 6.8, font: pdf.regular, color: pdfColors.muted });
}

/** An A4 sheet (or several) of labels with cut marks. */
export async function buildDeviceLabelsPdf(data: LabelSheetData): Promise<Uint8Array> {
  const pdf = await PdfWriter.create(
    { title: data.title, author: data.charityName, creator: data.productName, subject: 'Étiquettes de maintenance des défibrillateurs', createdAt: data.generatedAt },
    { margin: 20 },
  );
  const perPage = COLUMNS * ROWS;
  const heading = (pageNumber: number, pages: number) => {
    const text = fit(pdf, pdf.regular, `${data.title} · imprimé le ${formatDate(data.generatedAt)} par ${data.productName} · page ${pageNumber} sur ${pages}`, 8, A4.width - 2 * LEFT);
    pdf.page.drawText(text, { x: LEFT, y: A4.height - 22, size: 8, font: pdf.regular, color: pdfColors.muted });
  };
  const pages = Math.max(1, Math.ceil(data.devices.length / perPage));
  heading(1, pages);
  data.devices.forEach((device, index) => {
    if (index > 0 && index % perPage === 0) {
      pdf.addPage();
      heading(index / perPage + 1, pages);
    }
    const slot = index % perPage;
    const column = slot % COLUMNS;
    const row = Math.floor(slot / COLUMNS);
    const x = LEFT + column * (LABEL_W + GAP_X);
    const y = TOP - (row + 1) * LABEL_H - row * GAP_Y;
    cutMarks(pdf.page, x, y);
    drawLabel(pdf, data, device, x, y);
  });
  return pdf.finish();
}
