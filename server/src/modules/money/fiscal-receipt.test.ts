import { describe, expect, it } from 'vitest';
import { readPdf } from '../../../test/pdf';
import { buildFiscalReceiptPdf, type FiscalReceiptData } from './fiscal-receipt';

const data: FiscalReceiptData = {
  charityName: 'Association Maillon pour la chaîne de survie',
  productName: 'Maillon',
  payee: {
    firstName: 'Zoé',
    lastName: '« Le Bœuf » Müller-Ñandú',
    companyName: 'Électricité Générale d’Île-de-France',
    siret: '81234567800012',
    address: '12 rue de l’Église',
    postalCode: '75011',
    city: 'Paris',
  },
  missionTitle: 'Lot « Paris Est » — 12 défibrillateurs',
  invoiceReference: 'FAC-2026-100',
  transferReference: 'VIR-20261124-ABC123',
  transferDate: new Date('2026-11-20T10:00:00Z'),
  bankAccountLast4: '0189',
  amountCents: 1_234_567,
  generatedAt: new Date('2026-11-24T10:00:00Z'),
};

describe('fiscal receipt PDF', () => {
  it('prints the fr-FR amount with its narrow no-break spaces, « » and accents as typed, in the embedded font', async () => {
    const pdf = await readPdf(await buildFiscalReceiptPdf(data));
    expect(pdf.pageCount).toBe(1);
    expect(pdf.info).toMatchObject({
      Title: 'Reçu fiscal VIR-20261124-ABC123',
      Author: 'Association Maillon pour la chaîne de survie',
      Subject: 'Paiement de la facture FAC-2026-100',
      Creator: 'Maillon',
      Language: 'fr-FR',
    });
    const lines = pdf.pages[0]!.split('\n');
    // The whole text, line by line, as the independent reader decodes it: the text of the receipt before the port,
    // except that the amount keeps fr-FR's U+202F (thousands) and U+00A0 (before €).
    expect(lines).toEqual([
      'Association Maillon pour la chaîne de survie',
      'Émetteur du reçu',
      'Reçu fiscal',
      'Reçu n° VIR-20261124-ABC123 du 20/11/2026',
      'Bénéficiaire',
      'Technicien',
      'Zoé « Le Bœuf » Müller-Ñandú',
      'Entreprise',
      'Électricité Générale d’Île-de-France',
      'SIRET',
      '81234567800012',
      'Adresse',
      '12 rue de l’Église, 75011 Paris',
      'Paiement',
      'Mission',
      'Lot « Paris Est » — 12 défibrillateurs',
      'Référence de la facture',
      'FAC-2026-100',
      'Référence du virement',
      'VIR-20261124-ABC123',
      'Date du virement',
      '20/11/2026',
      'Compte crédité',
      '•••• 0189',
      'Montant versé',
      '12\u202f345,67\u00a0€',
      'Mention : tous les montants de prestation sont exprimés hors taxes (montants HT). Le montant versé',
      'correspond au montant validé de la mission, au prorata des défibrillateurs traités.',
      'Nous certifions que Association Maillon pour la chaîne de survie a versé la somme indiquée ci-dessus au',
      'bénéficiaire, en règlement de la facture FAC-2026-100.',
      'Document généré le 24/11/2026 par Maillon.',
    ]);
    // Liberation Sans embedded (subsets), never one of the 14 standard PDF fonts (WinAnsi only).
    expect(pdf.fonts.length).toBe(2);
    for (const font of pdf.fonts) expect(font).toMatch(/^LiberationSans(-Bold)?-\d+$/);
    expect(pdf.fonts.join(' ')).not.toMatch(/Helvetica|Times|Courier/);
  });

  it('keeps the receipt on one page for long names and drops what no font can draw', async () => {
    const bytes = await buildFiscalReceiptPdf({
      ...data,
      payee: { ...data.payee, companyName: `Maintenance ${'très '.repeat(40)}longue 🫀`, address: null, postalCode: null, city: null },
      missionTitle: null,
      bankAccountLast4: null,
    });
    const pdf = await readPdf(bytes);
    expect(pdf.pageCount).toBe(1);
    const text = pdf.pages[0]!;
    expect(text).toContain('longue ?');
    expect(text).not.toContain('Adresse');
    expect(text).not.toContain('Compte crédité');
  });
});
