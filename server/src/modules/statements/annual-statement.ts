import crypto from 'node:crypto';
import { formatDate, formatEurosForPrint } from '@maillon/common/format';
import { PdfWriter, pdfColors } from '../../lib/pdf/document';

export interface AnnualStatementData {
  charityName: string;
  charitySiret: string | null;
  productName: string;
  year: number;
  payee: {
    firstName: string;
    lastName: string;
    companyName: string | null;
    siret: string | null;
    address: string | null;
    postalCode: string | null;
    city: string | null;
  };
  payments: {
    transferDate: Date;
    transferRef: string;
    invoiceRef: string;
    missionTitle: string | null;
    amountCents: number;
  }[];
  generatedAt: Date;
}

/**
 * « Relevé annuel des paiements »: every transfer the charity made to a technician in a calendar year (Effectué, by
 * transfer date in Europe/Paris), with the total excluding VAT, for the technician's accountant (issue 21).
 */
export async function buildAnnualStatementPdf(data: AnnualStatementData): Promise<Uint8Array> {
  const name = `${data.payee.firstName} ${data.payee.lastName}`.trim();
  const totalCents = data.payments.reduce((sum, p) => sum + p.amountCents, 0);
  const pdf = await PdfWriter.create({
    title: `Relevé annuel des paiements ${data.year} – ${name}`,
    author: data.charityName,
    creator: data.productName,
    subject: `Paiements de ${data.charityName} à ${name} en ${data.year}`,
    createdAt: data.generatedAt,
  });

  pdf.charityHeader({ charityName: data.charityName, productName: data.productName, subtitle: data.charitySiret ? `SIRET ${data.charitySiret}` : undefined });
  pdf.space(12);
  pdf.text('Relevé annuel des paiements', { size: 22, bold: true });
  pdf.text(`Année ${data.year} · du 01/01/${data.year} au 31/12/${data.year}`, { size: 11, color: pdfColors.muted });
  pdf.rule(12);

  pdf.text('Bénéficiaire', { size: 12, bold: true, gap: 8 });
  const address = [data.payee.address, [data.payee.postalCode, data.payee.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  pdf.keyValues([
    { label: 'Technicien', value: name },
    { label: 'Entreprise', value: data.payee.companyName || 'Non renseignée' },
    { label: 'SIRET', value: data.payee.siret || 'Non renseigné' },
    ...(address ? [{ label: 'Adresse', value: address }] : []),
  ]);
  pdf.rule(12);

  pdf.text('Paiements reçus', { size: 12, bold: true, gap: 8 });
  if (data.payments.length === 0) {
    pdf.text(`Aucun virement n’a été effectué en ${data.year}.`, { size: 10.5, color: pdfColors.muted });
  } else {
    pdf.table(
      [
        { header: 'Date', width: 14 },
        { header: 'Référence du virement', width: 27 },
        { header: 'Facture', width: 18 },
        { header: 'Mission', width: 25 },
        { header: 'Montant HT', width: 16, align: 'right' },
      ],
      data.payments.map((p) => [formatDate(p.transferDate), p.transferRef, p.invoiceRef, p.missionTitle ?? '', formatEurosForPrint(p.amountCents / 100)]),
    );
  }
  pdf.space(8);
  pdf.keyValues([
    { label: 'Nombre de paiements', value: String(data.payments.length) },
    { label: `Total HT ${data.year}`, value: formatEurosForPrint(totalCents / 100), bold: true },
  ]);
  pdf.rule(12);
  pdf.text(
    'Montants hors taxes (HT) : chaque virement règle le montant validé d’une mission, au prorata des défibrillateurs traités. Les dates sont celles des virements (heure de Paris).',
    { size: 9.5, color: pdfColors.muted },
  );

  const fingerprint = crypto
    .createHash('sha256')
    .update(JSON.stringify([data.year, name, data.payments.map((p) => [p.transferRef, p.amountCents, p.transferDate.toISOString()])]))
    .digest('hex')
    .slice(0, 16);
  return pdf.finish({ note: `Document généré le ${formatDate(data.generatedAt)} par ${data.productName}.`, pageNumbers: true, fingerprint: `Empreinte ${fingerprint}` });
}
