import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { buildCiiXml, buildUblXml, embedInvoiceXml, facturXKitPdf, facturXKitProfile, GUIDELINES, type Profile } from '../../../test/factur-x';
import { listPdfAttachments } from '../../lib/pdf/attachments';
import { decimalToCents, parseEInvoiceXml, profileName, readEInvoice } from './e-invoice';

const SELLER = '81234567800012';
const BUYER = '73282932000074';

describe('reading Factur-X invoices', () => {
  it('reads the MINIMUM and BASIC WL invoices written by factur-x-kit', async () => {
    for (const profile of ['MINIMUM', 'BASIC WL'] as const) {
      const pdf = await facturXKitPdf({ profile, number: `FXK-${profile}`, sellerSiret: SELLER, buyerSiret: BUYER, net: 650 });
      const result = await readEInvoice(pdf);
      expect(result.kind).toBe('e-invoice');
      if (result.kind !== 'e-invoice') return;
      expect(result.data).toMatchObject({
        syntax: 'CII',
        attachmentName: 'factur-x.xml',
        profile,
        profileId: GUIDELINES[profile],
        invoiceNumber: `FXK-${profile}`,
        typeCode: '380',
        issueDate: '2026-11-20',
        currency: 'EUR',
        seller: { name: 'Martin Maintenance', legalId: SELLER, legalIdScheme: '0009' },
        buyer: { legalId: BUYER, legalIdScheme: '0009' },
        taxBasisCents: 65_000,
        grandTotalCents: 65_000,
        duePayableCents: 65_000,
      });
    }
  }, 30_000);

  it('reads every profile, under every file name the specifications use, and our XML is what factur-x-kit reads too', async () => {
    const profiles: Profile[] = ['MINIMUM', 'BASIC WL', 'BASIC', 'EN 16931', 'EXTENDED'];
    for (const profile of profiles) {
      const xml = buildCiiXml({ profile, number: `F-${profile}`, sellerSiret: SELLER, sellerVat: 'FR45812345678', buyerSiret: BUYER, net: 500, vatRate: 20 });
      if (profile !== 'EXTENDED') expect(await facturXKitProfile(xml)).toBe(GUIDELINES[profile]);
      for (const fileName of ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'ZUGFeRD-invoice.xml']) {
        const result = await readEInvoice(await embedInvoiceXml(xml, { profile, fileName }));
        expect(result, `${profile} ${fileName}`).toMatchObject({
          kind: 'e-invoice',
          data: { profile, attachmentName: fileName, invoiceNumber: `F-${profile}`, taxBasisCents: 50_000, taxCents: 10_000, grandTotalCents: 60_000, duePayableCents: 60_000, seller: { vatId: 'FR45812345678' } },
        });
      }
    }
  }, 30_000);

  it('reads a UBL invoice (XRechnung) and finds the SIREN inside a French VAT number', async () => {
    const ubl = await readEInvoice(await embedInvoiceXml(buildUblXml({ number: 'UBL-7', sellerSiret: SELLER, buyerSiret: BUYER, net: 120.5 }), { fileName: 'xrechnung.xml' }));
    expect(ubl).toMatchObject({ kind: 'e-invoice', data: { syntax: 'UBL', profile: 'XRECHNUNG', invoiceNumber: 'UBL-7', duePayableCents: 12_050, seller: { legalId: SELLER }, buyer: { legalId: BUYER } } });
    const vatOnly = parseEInvoiceXml(buildCiiXml({ number: 'V-1', sellerSiret: null, sellerVat: 'FR45 812345678', buyerSiret: BUYER, net: 10 }));
    expect(vatOnly).toMatchObject({ seller: { legalId: '812345678', legalIdScheme: '0002' } });
  });

  it('tells a plain PDF, an unreadable attachment and an unrelated attachment apart', async () => {
    const plain = await PDFDocument.create();
    plain.addPage().drawText('Facture', { font: await plain.embedFont(StandardFonts.Helvetica) });
    expect(await readEInvoice(await plain.save())).toEqual({ kind: 'none', otherAttachments: [] });

    const other = await PDFDocument.create();
    other.addPage();
    await other.attach(Buffer.from('bonjour'), 'notes.txt', { mimeType: 'text/plain' });
    expect(await readEInvoice(await other.save())).toEqual({ kind: 'none', otherAttachments: ['notes.txt'] });

    const broken = await embedInvoiceXml('<rsm:CrossIndustryInvoice><oops', { fileName: 'factur-x.xml' });
    expect(await readEInvoice(broken)).toMatchObject({ kind: 'unreadable', message: expect.stringContaining('factur-x.xml') });

    const doctype = await embedInvoiceXml('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>');
    expect(await readEInvoice(doctype)).toMatchObject({ kind: 'unreadable', message: expect.stringContaining('DOCTYPE') });

    const zugferd1 = await embedInvoiceXml('<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>', { fileName: 'ZUGFeRD-invoice.xml' });
    expect(await readEInvoice(zugferd1)).toMatchObject({ kind: 'unreadable', message: expect.stringContaining('ZUGFeRD 1.0') });
  });

  it('refuses decompression bombs instead of inflating them', async () => {
    // An embedded "XML" of 64 MB of zeros: 64 KB compressed, over the 5 MB limit once inflated.
    const bomb = zlib.deflateSync(Buffer.alloc(64 * 1024 * 1024));
    const pdf = await PDFDocument.create();
    pdf.addPage();
    // The embedded file stream written by hand: its raw bytes are the bomb, declared as FlateDecode.
    const stream = pdf.context.register(pdf.context.stream(bomb, { Type: 'EmbeddedFile', Subtype: 'text/xml', Filter: 'FlateDecode', Length: bomb.length }));
    const spec = pdf.context.register(pdf.context.obj({ Type: 'Filespec', F: PDFString.of('factur-x.xml'), UF: PDFString.of('factur-x.xml'), EF: { F: stream } }));
    pdf.catalog.set(PDFName.of('Names'), pdf.context.obj({ EmbeddedFiles: { Names: [PDFString.of('factur-x.xml'), spec] } }));
    const attachments = await listPdfAttachments(await pdf.save());
    expect(attachments).toEqual([expect.objectContaining({ name: 'factur-x.xml', content: null })]);
    expect(await readEInvoice(await pdf.save())).toMatchObject({ kind: 'unreadable', message: expect.stringContaining('trop volumineux') });

    // An object stream that inflates to 64 MB: refused before pdf-lib loads it.
    const objStm = Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`, 'latin1'),
      bomb,
      Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
    ]);
    await expect(readEInvoice(objStm)).rejects.toMatchObject({ reason: 'too-large' });
    expect(await readEInvoice(Buffer.from('%PDF-1.4\nnot really a pdf\n%%EOF\n'))).toEqual({ kind: 'none', otherAttachments: [] });
  }, 30_000);

  it('converts amounts and profile names exactly', () => {
    expect(decimalToCents('650')).toBe(65_000);
    expect(decimalToCents('650.5')).toBe(65_050);
    expect(decimalToCents('0.105')).toBe(11);
    expect(decimalToCents('-12.344')).toBe(-1_234);
    expect(decimalToCents('1e3')).toBeNull();
    expect(profileName('urn:factur-x.eu:1p0:basicwl')).toBe('BASIC WL');
    expect(profileName('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0')).toBe('XRECHNUNG');
    expect(profileName('urn:cen.eu:en16931:2017')).toBe('EN 16931');
    expect(profileName(null)).toBe('Inconnu');
  });
});
