import { AFRelationship, PDFDocument, PDFName, StandardFonts } from '@cantoo/pdf-lib';
import {
  COUNTRY_ID_CODES,
  CURRENCY_CODES,
  DOCUMENT_TYPE_CODES,
  FacturX,
  ISO6523_CODES,
  PAYMENT_MEANS_CODES,
  PROFILES,
  TAX_CATEGORY_CODES,
  TAX_TYPE_CODE,
} from 'factur-x-kit';

/**
 * Real Factur-X invoices for the tests, made two independent ways:
 * - factur-x-kit's writer (its own XML serialiser, its own PDF/A-3 template and attachment), for the MINIMUM and
 *   BASIC WL profiles it writes from a plain object;
 * - a CII document written here to the EN 16931 structure (header, a line, VAT breakdown, totals) and embedded as a
 *   PDF/A-3 associated file with @cantoo/pdf-lib, for BASIC, EN 16931 and EXTENDED, or under the ZUGFeRD / XRechnung
 *   file names. The tests read this XML back with factur-x-kit's parser too, so it is not only our reader's opinion.
 */

export type Profile = 'MINIMUM' | 'BASIC WL' | 'BASIC' | 'EN 16931' | 'EXTENDED';

export const GUIDELINES: Record<Profile, string> = {
  MINIMUM: 'urn:factur-x.eu:1p0:minimum',
  'BASIC WL': 'urn:factur-x.eu:1p0:basicwl',
  BASIC: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
  'EN 16931': 'urn:cen.eu:en16931:2017',
  EXTENDED: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
};

export interface InvoiceData {
  profile?: Profile;
  number: string;
  /** yyyy-mm-dd */
  issueDate?: string;
  typeCode?: string;
  currency?: string;
  sellerName?: string;
  sellerSiret?: string | null;
  /** ISO 6523 scheme of the seller's legal id: 0009 SIRET (default), 0002 SIREN. */
  sellerScheme?: '0009' | '0002';
  sellerVat?: string | null;
  buyerName?: string;
  buyerSiret?: string | null;
  /** Amount excluding VAT, in euros. */
  net: number;
  /** VAT rate in percent; 0 = franchise en base (art. 293 B du CGI). */
  vatRate?: number;
  /** Amount due (BT-115), when it differs from the total (an advance already paid). */
  due?: number;
}

const money = (value: number) => value.toFixed(2);
const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function totals(data: InvoiceData) {
  const rate = data.vatRate ?? 0;
  const tax = Math.round(data.net * rate) / 100;
  const gross = Math.round((data.net + tax) * 100) / 100;
  return { rate, tax, gross, due: data.due ?? gross };
}

/** A CII (Cross Industry Invoice D16B) document with the structure of the given profile. */
export function buildCiiXml(data: InvoiceData): string {
  const profile = data.profile ?? 'EN 16931';
  const { rate, tax, gross, due } = totals(data);
  const currency = data.currency ?? 'EUR';
  const withLines = profile === 'BASIC' || profile === 'EN 16931' || profile === 'EXTENDED';
  const detailed = profile !== 'MINIMUM';
  const category = rate === 0 ? 'E' : 'S';
  const legal = (id: string | null | undefined, scheme: string) =>
    id ? `<ram:SpecifiedLegalOrganization><ram:ID schemeID="${scheme}">${escapeXml(id)}</ram:ID></ram:SpecifiedLegalOrganization>` : '';
  const line = withLines
    ? `<ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:Name>Maintenance de défibrillateurs (lot)</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${money(data.net)}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">1</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement>
        <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${category}</ram:CategoryCode><ram:RateApplicablePercent>${rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>
        <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${money(data.net)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
      </ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>`
    : '';
  const sellerVat = data.sellerVat ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${escapeXml(data.sellerVat)}</ram:ID></ram:SpecifiedTaxRegistration>` : '';
  const settlementDetails = detailed
    ? `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>FR7630006000011234567890189</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>
      <ram:ApplicableTradeTax><ram:CalculatedAmount>${money(tax)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>${rate === 0 ? '<ram:ExemptionReason>TVA non applicable, art. 293 B du CGI</ram:ExemptionReason>' : ''}<ram:BasisAmount>${money(data.net)}</ram:BasisAmount><ram:CategoryCode>${category}</ram:CategoryCode>${rate === 0 ? '<ram:ExemptionReasonCode>VATEX-FR-FRANCHISE</ram:ExemptionReasonCode>' : ''}<ram:RateApplicablePercent>${rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>
      <ram:SpecifiedTradePaymentTerms><ram:Description>Paiement à 30 jours</ram:Description></ram:SpecifiedTradePaymentTerms>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext>
    <ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>A1</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>
    <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${GUIDELINES[profile]}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
  </rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>${escapeXml(data.number)}</ram:ID>
    <ram:TypeCode>${data.typeCode ?? '380'}</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">${(data.issueDate ?? '2026-11-20').replace(/-/g, '')}</udt:DateTimeString></ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    ${line}
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty>
        <ram:Name>${escapeXml(data.sellerName ?? 'Martin Maintenance')}</ram:Name>
        ${legal(data.sellerSiret, data.sellerScheme ?? '0009')}
        <ram:PostalTradeAddress><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress>
        ${sellerVat}
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty>
        <ram:Name>${escapeXml(data.buyerName ?? 'Association Maillon pour la chaîne de survie')}</ram:Name>
        ${legal(data.buyerSiret, '0009')}
        ${detailed ? '<ram:PostalTradeAddress><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress>' : ''}
      </ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>${currency}</ram:InvoiceCurrencyCode>
      ${settlementDetails}
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        ${detailed ? `<ram:LineTotalAmount>${money(data.net)}</ram:LineTotalAmount>` : ''}
        <ram:TaxBasisTotalAmount>${money(data.net)}</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="${currency}">${money(tax)}</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>${money(gross)}</ram:GrandTotalAmount>
        <ram:DuePayableAmount>${money(due)}</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`;
}

/** A UBL 2.1 invoice (the syntax XRechnung also allows). */
export function buildUblXml(data: InvoiceData): string {
  const { tax, gross, due } = totals(data);
  const currency = data.currency ?? 'EUR';
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
  <cbc:ID>${escapeXml(data.number)}</cbc:ID>
  <cbc:IssueDate>${data.issueDate ?? '2026-11-20'}</cbc:IssueDate>
  <cbc:InvoiceTypeCode>${data.typeCode ?? '380'}</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>${currency}</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PartyLegalEntity><cbc:RegistrationName>${escapeXml(data.sellerName ?? 'Martin Maintenance')}</cbc:RegistrationName><cbc:CompanyID schemeID="0009">${data.sellerSiret ?? ''}</cbc:CompanyID></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cac:PartyLegalEntity><cbc:RegistrationName>${escapeXml(data.buyerName ?? 'Association Maillon')}</cbc:RegistrationName><cbc:CompanyID schemeID="0009">${data.buyerSiret ?? ''}</cbc:CompanyID></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="${currency}">${money(tax)}</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="${currency}">${money(data.net)}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="${currency}">${money(data.net)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="${currency}">${money(gross)}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="${currency}">${money(due)}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
</Invoice>
`;
}

const XMP = (profile: Profile, fileName: string) => `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
    <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
      <fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>${fileName}</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>${profile === 'BASIC WL' ? 'BASIC WL' : profile}</fx:ConformanceLevel>
    </rdf:Description>
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;

/** A one-page invoice PDF with the XML embedded as a PDF/A-3 associated file (Factur-X: /AF, /AFRelationship, XMP). */
export async function embedInvoiceXml(
  xml: string,
  { fileName = 'factur-x.xml', profile = 'EN 16931', title = 'Facture' }: { fileName?: string; profile?: Profile; title?: string } = {},
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(title, { x: 50, y: 780, size: 18, font });
  page.drawText('Maintenance de defibrillateurs', { x: 50, y: 740, size: 12, font });
  await pdf.attach(Buffer.from(xml, 'utf8'), fileName, {
    mimeType: 'text/xml',
    description: 'Factur-X invoice',
    creationDate: new Date('2026-11-20T10:00:00Z'),
    modificationDate: new Date('2026-11-20T10:00:00Z'),
    afRelationship: profile === 'MINIMUM' || profile === 'BASIC WL' ? AFRelationship.Data : AFRelationship.Alternative,
  });
  const metadata = pdf.context.stream(XMP(profile, fileName), { Type: 'Metadata', Subtype: 'XML' });
  pdf.catalog.set(PDFName.of('Metadata'), pdf.context.register(metadata));
  return Buffer.from(await pdf.save());
}

/** A Factur-X PDF written entirely by factur-x-kit (its template, its XML, its PDF/A-3 attachment). */
export async function facturXKitPdf(data: InvoiceData & { profile: 'MINIMUM' | 'BASIC WL' }): Promise<Buffer> {
  const { tax, gross, due } = totals(data);
  const [year, month, day] = (data.issueDate ?? '2026-11-20').split('-').map(Number) as [number, number, number];
  const legal = (id: string | null | undefined) => (id ? { specifiedLegalOrganization: { id: { id, scheme: ISO6523_CODES.SIRET_CODE } } } : {});
  const base = {
    businessProcessType: 'A1',
    document: { id: data.number, type: DOCUMENT_TYPE_CODES.COMMERCIAL_INVOICE, dateOfIssue: { year, month, day }, currency: CURRENCY_CODES.Euro },
    seller: {
      name: data.sellerName ?? 'Martin Maintenance',
      ...legal(data.sellerSiret),
      postalAddress: { country: COUNTRY_ID_CODES.FRANCE },
      taxIdentification: { vatId: data.sellerVat ?? 'FR00123456789' },
    },
    buyer: { name: data.buyerName ?? 'Association Maillon', ...legal(data.buyerSiret) },
  };
  const object =
    data.profile === 'MINIMUM'
      ? { ...base, profile: PROFILES.MINIMUM, totals: { netTotal: data.net, taxTotal: [{ amount: tax, currency: CURRENCY_CODES.Euro }], grossTotal: gross, openAmount: due } }
      : {
          ...base,
          profile: PROFILES.BASIC_WITHOUT_LINES,
          buyer: { ...base.buyer, postalAddress: { country: COUNTRY_ID_CODES.FRANCE } },
          delivery: {},
          paymentInformation: {
            paymentTerms: { description: 'Paiement à 30 jours' },
            paymentMeans: [{ paymentType: PAYMENT_MEANS_CODES.SEPA_credit_transfer, payeeBankAccount: { iban: 'FR7630006000011234567890189' } }],
          },
          totals: {
            sumWithoutAllowancesAndCharges: data.net,
            netTotal: data.net,
            taxBreakdown: [
              {
                calculatedAmount: tax,
                typeCode: TAX_TYPE_CODE.VALUE_ADDED_TAX_VAT,
                basisAmount: data.net,
                exemptionReason: 'TVA non applicable, art. 293 B du CGI',
                categoryCode: TAX_CATEGORY_CODES.EXEMPT_FROM_TAX,
                rateApplicablePercent: 0,
              },
            ],
            taxTotal: [{ amount: tax, currency: CURRENCY_CODES.Euro }],
            grossTotal: gross,
            openAmount: due,
          },
        };
  const invoice = await FacturX.fromObject(object as Parameters<typeof FacturX.fromObject>[0]);
  return Buffer.from(await invoice.getPDF({ locale: 'fr-FR' }));
}

/** factur-x-kit's reading of an XML document: the profile it detects (throws when it cannot parse it). */
export async function facturXKitProfile(xml: string): Promise<string> {
  const invoice = await FacturX.fromXML(xml);
  return (invoice.object as { profile: string }).profile;
}
