import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { applications, invoices, missionBatches, missions } from '../../db/schema';
import { createTechnician } from '../../../test/helpers';
import { finishApplication, recruitApplication, saveMissionProgress } from '../lifecycle/lifecycle.service';

/** A valid one-page PDF, as an accountant's software would produce. */
export async function samplePdf(text = 'Facture de prestation'): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([300, 200]);
  page.drawText(text, { x: 20, y: 100, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await pdf.save());
}

export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e1f3b20000000049454e44ae426082',
  'hex',
);

/** A PDF that runs JavaScript when opened. */
export const JAVASCRIPT_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >> >> endobj\n' +
    '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

export interface FormFile {
  name: string;
  content: Buffer;
  type?: string;
  field?: string;
}

/** A multipart/form-data body for app.inject. */
export function multipart(fields: Record<string, string>, file?: FormFile) {
  const boundary = `----maillon${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'invoice_file'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/pdf'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

export const IBAN = 'FR76 3000 6000 0112 3456 7890 189';

/** A technician with an IBAN and an invoice waiting for submission ("Facture à soumettre"). */
export async function invoiceToSubmit(db: Db, { validatedCents = 48_000, priceCents = 60_000, technicianId }: { validatedCents?: number; priceCents?: number; technicianId?: string } = {}) {
  const owner = technicianId ? null : await createTechnician(db, { iban: IBAN, companyName: 'Martin Maintenance', siret: '81234567800012' });
  const techId = technicianId ?? owner!.technician.id;
  const [lot] = await db
    .insert(missionBatches)
    .values({ title: `Lot ${crypto.randomUUID().slice(0, 6)}`, priceCents, status: 'completed', visibility: 'visible' })
    .returning({ id: missionBatches.id, title: missionBatches.title });
  const [invoice] = await db
    .insert(invoices)
    .values({
      technicianId: techId,
      batchId: lot!.id,
      missionTitle: lot!.title,
      status: 'Facture à soumettre',
      batchPriceCents: priceCents,
      initialAmountCents: priceCents,
      amountCents: priceCents,
      validatedAmountCents: validatedCents,
      progression: '4/5',
    })
    .returning({ id: invoices.id });
  return { invoiceId: invoice!.id, technicianId: techId, owner, lotId: lot!.id };
}

/** The real lifecycle: recruit on a lot of `total` devices, complete `done`, then finish (forced when partial). */
export async function finishedLot(db: Db, { technicianId, priceCents, total, done }: { technicianId: string; priceCents: number; total: number; done: number }) {
  const [lot] = await db.insert(missionBatches).values({ title: `Lot ${total}`, priceCents, visibility: 'visible' }).returning({ id: missionBatches.id });
  const rows = await db
    .insert(missions)
    .values(Array.from({ length: total }, (_, i) => ({ title: `Défibrillateur ${i + 1}`, batchId: lot!.id, status: 'active' })))
    .returning({ id: missions.id });
  const [application] = await db.insert(applications).values({ batchId: lot!.id, technicianId }).returning({ id: applications.id });
  await db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
  for (const mission of rows.slice(0, done)) {
    await db.transaction((tx) => saveMissionProgress(tx, { missionId: mission.id, technicianId, patch: { isCompleted: true } }));
  }
  await db.transaction((tx) => finishApplication(tx, { applicationId: application!.id, force: done < total }));
  const [invoice] = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.batchId, lot!.id));
  return { lotId: lot!.id, invoiceId: invoice!.id };
}
