import { formatDate, formatEurosForPrint } from '@maillon/common/format';
import { PdfWriter, pdfColors } from '../../lib/pdf/document';

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

/** A one-page A4 receipt of a paid transfer (decisions.md §4 "Reçu fiscal"). */
export async function buildFiscalReceiptPdf(data: FiscalReceiptData): Promise<Uint8Array> {
  const pdf = await PdfWriter.create({
    title: `Reçu fiscal ${data.transferReference}`,
    author: data.charityName,
    creator: data.productName,
    subject: `Paiement de la facture ${data.invoiceReference}`,
    createdAt: data.generatedAt,
  });

  pdf.charityHeader({ charityName: data.charityName, subtitle: 'Émetteur du reçu' });
  pdf.space(14);
  pdf.text('Reçu fiscal', { size: 24, bold: true });
  pdf.text(`Reçu n° ${data.transferReference} du ${formatDate(data.transferDate)}`, { size: 11, color: pdfColors.muted });
  pdf.rule(14);

  pdf.text('Bénéficiaire', { size: 12, bold: true, gap: 8 });
  const address = [data.payee.address, [data.payee.postalCode, data.payee.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  pdf.keyValues([
    { label: 'Technicien', value: `${data.payee.firstName} ${data.payee.lastName}`.trim() },
    { label: 'Entreprise', value: data.payee.companyName || 'Non renseignée' },
    { label: 'SIRET', value: data.payee.siret || 'Non renseigné' },
    ...(address ? [{ label: 'Adresse', value: address }] : []),
  ]);
  pdf.rule(14);

  pdf.text('Paiement', { size: 12, bold: true, gap: 8 });
  pdf.keyValues([
    ...(data.missionTitle ? [{ label: 'Mission', value: data.missionTitle }] : []),
    { label: 'Référence de la facture', value: data.invoiceReference },
    { label: 'Référence du virement', value: data.transferReference },
    { label: 'Date du virement', value: formatDate(data.transferDate) },
    ...(data.bankAccountLast4 ? [{ label: 'Compte crédité', value: `•••• ${data.bankAccountLast4}` }] : []),
  ]);
  pdf.space(6);
  pdf.keyValues([{ label: 'Montant versé', value: formatEurosForPrint(data.amountCents / 100), bold: true }]);
  pdf.rule(14);

  pdf.text(
    'Mention : tous les montants de prestation sont exprimés hors taxes (montants HT). Le montant versé correspond au montant validé de la mission, au prorata des défibrillateurs traités.',
    { size: 10 },
  );
  pdf.space(10);
  pdf.text(
    `Nous certifions que ${data.charityName} a versé la somme indiquée ci-dessus au bénéficiaire, en règlement de la facture ${data.invoiceReference}.`,
    { size: 10 },
  );

  return pdf.finish({ note: `Document généré le ${formatDate(data.generatedAt)} par ${data.productName}.` });
}
