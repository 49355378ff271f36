import { CHECK_LABELS, CHECKLIST_ITEMS, formatDay, type CheckValue } from '@maillon/common/device-rules';
import { formatDate, formatDateTime } from '@maillon/common/format';
import { PdfWriter, pdfColors } from '../../lib/pdf/document';

/**
 * The procès-verbal de maintenance of one visit: who (charity, technician with company and SIRET), what (device,
 * site), when, what was found (outcome, checklist, expiry dates, consumables replaced, photos, observations) and who
 * signed for the site, with the report's SHA-256 fingerprint in the footer of every page (docs/decisions/024).
 */
export interface VisitReportPdfData {
  charityName: string;
  productName: string;
  generatedAt: Date;
  reportId: string;
  version: number;
  fingerprint: string;
  lotTitle: string | null;
  device: {
    serialNumber: string | null;
    manufacturer: string | null;
    model: string | null;
    siteName: string | null;
    address: string | null;
    postalCode: string | null;
    city: string | null;
    operatorName: string | null;
  };
  technician: { firstName: string; lastName: string; companyName: string | null; siret: string | null };
  visitedAt: Date;
  outcome: string;
  checklist: Record<string, string>;
  batteryExpiry: string | null;
  adultPadsExpiry: string | null;
  pediatricPadsPresent: boolean | null;
  pediatricPadsExpiry: string | null;
  consumablesReplaced: string[];
  observations: string | null;
  photos: Uint8Array[];
  signature: { signerName: string; signedAt: Date | null; image: Uint8Array } | null;
  unsignedReason: string | null;
}

function section(pdf: PdfWriter, title: string): void {
  pdf.ensureSpace(40);
  pdf.space(8);
  pdf.text(title, { size: 12.5, bold: true, color: pdfColors.red, gap: 6 });
}

const orDash = (value: string | null | undefined) => (value && value.trim() ? value : '—');

export async function buildVisitReportPdf(data: VisitReportPdfData): Promise<Uint8Array> {
  const pdf = await PdfWriter.create({
    title: `Procès-verbal de maintenance ${data.device.serialNumber ?? ''}`.trim(),
    author: data.charityName,
    creator: data.productName,
    subject: `Visite du ${formatDate(data.visitedAt)} — ${data.device.siteName ?? ''}`.trim(),
    createdAt: data.generatedAt,
  });
  pdf.charityHeader({ charityName: data.charityName, productName: data.productName, subtitle: 'Maintenance des défibrillateurs automatisés externes' });
  pdf.space(12);
  pdf.text('Procès-verbal de maintenance', { size: 22, bold: true });
  pdf.text(`Visite du ${formatDateTime(data.visitedAt)} · rapport ${data.reportId.slice(0, 8)} · version ${data.version}`, { size: 10.5, color: pdfColors.muted });
  pdf.rule(10);

  section(pdf, 'Défibrillateur et site');
  const model = [data.device.manufacturer, data.device.model].filter(Boolean).join(' ');
  const place = [data.device.address, [data.device.postalCode, data.device.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  pdf.keyValues([
    { label: 'Fabricant et modèle', value: orDash(model) },
    { label: 'N° de série', value: data.device.serialNumber || 'Non renseigné', bold: true },
    { label: 'Site', value: orDash(data.device.siteName) },
    { label: 'Adresse', value: orDash(place) },
    ...(data.device.operatorName ? [{ label: 'Exploitant', value: data.device.operatorName }] : []),
  ]);

  section(pdf, 'Intervention');
  pdf.keyValues([
    { label: 'Technicien', value: `${data.technician.firstName} ${data.technician.lastName}` },
    { label: 'Entreprise', value: data.technician.companyName || 'Non renseignée' },
    { label: 'SIRET', value: data.technician.siret || 'Non renseigné' },
    { label: 'Date et heure', value: formatDateTime(data.visitedAt) },
    ...(data.lotTitle ? [{ label: 'Lot', value: data.lotTitle }] : []),
    { label: 'Résultat de la visite', value: data.outcome, bold: true },
  ]);

  if (Object.keys(data.checklist).length > 0) {
    section(pdf, 'Liste de contrôle');
    pdf.table(
      [
        { header: 'Point contrôlé', width: 2 },
        { header: 'Constat', width: 1 },
      ],
      CHECKLIST_ITEMS.filter((item) => data.checklist[item.key]).map((item) => [item.label, CHECK_LABELS[data.checklist[item.key] as CheckValue] ?? data.checklist[item.key]!]),
    );
  }

  section(pdf, 'Consommables');
  const pediatric = data.pediatricPadsPresent === false ? 'Absentes' : data.pediatricPadsPresent ? (formatDay(data.pediatricPadsExpiry) || 'Non relevée') : 'Non relevé';
  pdf.table(
    [
      { header: 'Consommable', width: 2 },
      { header: 'Date de péremption', width: 1 },
    ],
    [
      ['Batterie', formatDay(data.batteryExpiry) || 'Non relevée'],
      ['Électrodes adultes', formatDay(data.adultPadsExpiry) || 'Non relevée'],
      ['Électrodes pédiatriques', pediatric],
    ],
  );
  pdf.space(6);
  if (data.consumablesReplaced.length > 0) {
    pdf.text('Remplacés lors de la visite :', { size: 10.5, bold: true });
    for (const item of data.consumablesReplaced) pdf.text(`• ${item}`, { size: 10, x: pdf.margin + 8, maxWidth: pdf.width - 8 });
  } else {
    pdf.text('Aucun consommable remplacé lors de la visite.', { size: 10.5 });
  }

  section(pdf, 'Observations');
  pdf.text(data.observations?.trim() || 'Aucune observation.', { size: 10.5 });

  if (data.photos.length > 0) {
    section(pdf, `Photos (${data.photos.length})`);
    const columnWidth = (pdf.width - 12) / 2;
    for (let i = 0; i < data.photos.length; i += 2) {
      const row = data.photos.slice(i, i + 2);
      const images = await Promise.all(row.map((bytes) => pdf.embedImage(bytes)));
      const heights = images.map((image) => image.height * Math.min(columnWidth / image.width, 180 / image.height, 1));
      pdf.ensureSpace(Math.max(...heights) + 8);
      const top = pdf.y;
      let lowest = top;
      for (const [k, image] of images.entries()) {
        pdf.y = top;
        const drawn = await pdf.image(image, { maxWidth: columnWidth, maxHeight: 180, x: pdf.margin + k * (columnWidth + 12) });
        lowest = Math.min(lowest, top - drawn.height);
      }
      pdf.y = lowest - 8;
    }
  }

  section(pdf, 'Signature du contact sur site');
  if (data.signature) {
    pdf.keyValues([
      { label: 'Signataire', value: data.signature.signerName, bold: true },
      { label: 'Signé le', value: data.signature.signedAt ? formatDateTime(data.signature.signedAt) : formatDateTime(data.visitedAt) },
    ]);
    pdf.space(4);
    pdf.ensureSpace(100);
    const top = pdf.y;
    await pdf.image(data.signature.image, { maxWidth: 240, maxHeight: 90 });
    pdf.page.drawRectangle({ x: pdf.margin - 4, y: pdf.y - 4, width: 248, height: top - pdf.y + 8, borderColor: pdfColors.line, borderWidth: 0.8 });
  } else {
    pdf.text(`Non signé : ${data.unsignedReason?.trim() || 'motif non indiqué'}`, { size: 10.5 });
  }

  return pdf.finish({
    note: `Procès-verbal généré le ${formatDateTime(data.generatedAt)} par ${data.productName} — version ${data.version}`,
    pageNumbers: true,
    fingerprint: `Empreinte SHA-256 du rapport : ${data.fingerprint}`,
  });
}
