import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { InvoiceInspection } from '@maillon/common/schemas/e-invoice';
import { InspectionPanel } from './inspection-panel';

const facturX: InvoiceInspection = {
  format: 'factur-x',
  accepted: false,
  summary: 'Facture électronique Factur-X (profil EN 16931) n° FA-42 du 20/11/2026',
  eInvoice: {
    syntax: 'CII',
    attachmentName: 'factur-x.xml',
    profileId: 'urn:cen.eu:en16931:2017',
    profile: 'EN 16931',
    invoiceNumber: 'FA-42',
    typeCode: '380',
    issueDate: '2026-11-20',
    currency: 'EUR',
    seller: { name: 'Martin Maintenance', legalId: '81234567800012', legalIdScheme: '0009', vatId: null },
    buyer: { name: 'Association Maillon', legalId: '73282932000074', legalIdScheme: '0009' },
    taxBasisAmount: 700,
    taxAmount: 0,
    grandTotalAmount: 700,
    duePayableAmount: 700,
  },
  checks: [
    { key: 'amount', ok: false, message: 'Montant de la facture : 700,00 € ; montant validé : 650,00 €' },
    { key: 'seller', ok: true, message: 'Vendeur : SIRET 812 345 678 00012, celui de votre profil' },
  ],
  suggestedReference: 'FA-42',
};

describe('InspectionPanel', () => {
  it('says it is reading, then what the Factur-X says and each check, refused ones marked for screen readers', () => {
    const { rerender } = render(<InspectionPanel pending inspection={null} />);
    expect(screen.getByRole('status')).toHaveTextContent('Lecture de la facture…');
    rerender(<InspectionPanel pending={false} inspection={facturX} />);
    const panel = screen.getByRole('status', { name: 'Lecture de la facture' });
    expect(panel).toHaveTextContent('n° FA-42 du 20/11/2026');
    expect(panel).toHaveTextContent('Montant à payer 700,00 € · vendeur Martin Maintenance · acheteur Association Maillon');
    const checks = within(panel).getAllByRole('listitem');
    expect(checks[0]).toHaveTextContent('Refusé : Montant de la facture : 700,00 € ; montant validé : 650,00 €');
    expect(checks[1]).toHaveTextContent('Vérifié : Vendeur : SIRET 812 345 678 00012');
    expect(panel).not.toHaveTextContent('La référence reprend le numéro de la facture.');
  });

  it('shows a plain PDF as such, and nothing before a file is read', () => {
    const { container, rerender } = render(<InspectionPanel pending={false} inspection={null} />);
    expect(container).toBeEmptyDOMElement();
    rerender(
      <InspectionPanel
        pending={false}
        inspection={{ format: 'pdf', accepted: true, summary: 'PDF simple, sans données de facture électronique', eInvoice: null, checks: [{ key: 'required', ok: true, message: 'PDF simple accepté jusqu’au 31/08/2027' }], suggestedReference: null }}
      />,
    );
    expect(screen.getByRole('status', { name: 'Lecture de la facture' })).toHaveTextContent('PDF simple accepté jusqu’au 31/08/2027');
  });
});
