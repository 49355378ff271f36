import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import {
  applications,
  calendarFeeds,
  emailOutbox,
  jobs,
  learningResources,
  missionBatches,
  missions,
  modelConsumables,
  payoutBatchLines,
  payoutBatches,
  resourceViews,
  shipments,
  storedFiles,
  technicianMissionData,
  transfers,
  visitAppointments,
  visitLinks,
  visitReportPhotos,
  visitReports,
} from '../../src/db/schema';
import { hashToken, randomToken } from '../../src/lib/passwords';
import { linkMissionToDevice } from '../../src/modules/devices/devices.service';
import { recruitApplication } from '../../src/modules/lifecycle/lifecycle.service';
import { createAdmin, createTechnician } from '../helpers';

export type EntityKind =
  | 'technician'
  | 'user'
  | 'application'
  | 'invoice'
  | 'shipment'
  | 'file'
  | 'mission'
  | 'batch'
  | 'resource'
  | 'job'
  | 'payoutBatch'
  | 'payoutLine'
  | 'email'
  | 'siteToken'
  | 'feedToken'
  | 'device'
  | 'report'
  | 'photo'
  | 'consumable';
export type Ids = Record<EntityKind, string>;

export interface World {
  admin: { email: string; userId: string };
  a: { email: string; ids: Ids };
  b: { email: string; ids: Ids };
}

async function technicianWorld(db: Db, uploadsDir: string, label: string, resourceId: string, jobId: string, payout: { batch: string; line: string }) {
  const { user, technician } = await createTechnician(db, {
    firstName: label,
    formationCompleted: true,
    formationStatus: 'Formation complétée',
    address: '1 rue de la Paix',
    city: 'Paris',
    postalCode: '75011',
    iban: 'FR7630006000011234567890189',
  });
  await db.insert(resourceViews).values({ resourceId, technicianId: technician.id });
  const [lot] = await db.insert(missionBatches).values({ title: `Lot ${label}`, priceCents: 60_000, visibility: 'visible' }).returning();
  const [mission] = await db
    .insert(missions)
    .values([
      { title: `Mission ${label} 1`, batchId: lot!.id, status: 'active', location: '1 rue de Rivoli, 75001 Paris', postalCode: '75001', city: 'Paris', emailSite: 'site@exemple.fr', serialNumber: `SN-WORLD-${label}-1`, defibrillatorModel: 'Zoll - AED Plus' },
      { title: `Mission ${label} 2`, batchId: lot!.id, status: 'active', location: '3 place Bellecour, 69002 Lyon', postalCode: '69002', city: 'Lyon', serialNumber: `SN-WORLD-${label}-2` },
    ])
    .returning();
  const deviceId = (await db.transaction((tx) => linkMissionToDevice(tx, mission!.id)))!;
  const [application] = await db.insert(applications).values({ batchId: lot!.id, technicianId: technician.id }).returning();
  await db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
  // Done, with its report (it stays in the lot even when the admin's forced finish runs in the matrix), and planned in
  // three days: the site's link (an invitation out) and the technician's calendar feed, with their tokens (issue 19).
  const [progress] = await db
    .insert(technicianMissionData)
    .values({ missionId: mission!.id, technicianId: technician.id, plannedVisitDate: new Date(Date.now() + 3 * 86_400_000), isCompleted: true })
    .returning();
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const [appointment] = await db
    .insert(visitAppointments)
    .values({ missionId: mission!.id, technicianId: technician.id, uid: progress!.id, siteEmail: 'site@exemple.fr', invitedAt: new Date(), invitedDate: day })
    .returning();
  const siteToken = randomToken();
  await db.insert(visitLinks).values({ tokenHash: hashToken(siteToken), appointmentId: appointment!.id, expiresAt: new Date(Date.now() + 5 * 86_400_000) });
  const feedToken = randomToken();
  await db.insert(calendarFeeds).values({ technicianId: technician.id, tokenHash: hashToken(feedToken) });
  const [email] = await db.insert(emailOutbox).values({ kind: 'client-notification', to: 'site@exemple.fr', subject: `Visite ${label}`, text: 'Bonjour' }).returning();
  const [invoice] = await db.execute<{ id: string }>(sql`select id from invoices where batch_id = ${lot!.id}`).then((r) => r.rows);
  const [shipment] = await db.insert(shipments).values({ batchId: lot!.id, technicianId: technician.id, status: 'in_transit', trackingNumber: 'MR1' }).returning();
  const storageKey = `cv/${crypto.randomUUID()}.pdf`;
  fs.mkdirSync(path.join(uploadsDir, 'cv'), { recursive: true });
  fs.writeFileSync(path.join(uploadsDir, storageKey), '%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n');
  const [file] = await db
    .insert(storedFiles)
    .values({ technicianId: technician.id, kind: 'cv', storageKey, originalName: 'cv.pdf', mimeType: 'application/pdf', size: 40 })
    .returning();
  // A saved visit report on the first device, with a photo and its PV in the store (issue 16).
  const stored = async (kind: 'visit-photo' | 'visit-report', extension: string, bytes: Buffer, mimeType: string) => {
    const key = `${kind}/${crypto.randomUUID()}.${extension}`;
    fs.mkdirSync(path.join(uploadsDir, kind), { recursive: true });
    fs.writeFileSync(path.join(uploadsDir, key), bytes);
    const [row] = await db.insert(storedFiles).values({ technicianId: technician.id, kind, storageKey: key, originalName: `${kind}.${extension}`, mimeType, size: bytes.length }).returning();
    return row!.id;
  };
  const photoBytes = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
  const pdfFileId = await stored('visit-report', 'pdf', Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n'), 'application/pdf');
  const photoFileId = await stored('visit-photo', 'jpg', photoBytes, 'image/jpeg');
  const [report] = await db
    .insert(visitReports)
    .values({ id: crypto.randomUUID(), missionId: mission!.id, technicianId: technician.id, deviceId, version: 1, outcome: 'En fonctionnement', visitedAt: new Date(), fingerprint: '0'.repeat(64), pdfFileId, finalizedAt: new Date() })
    .returning();
  const photoId = crypto.randomUUID();
  await db.insert(visitReportPhotos).values({ id: photoId, reportId: report!.id, fileId: photoFileId, sha256: '0'.repeat(64), width: 1, height: 1, size: photoBytes.length });
  // A reference consumable of a model (seeded by the migration; admin routes only).
  const [consumable] = await db.select({ id: modelConsumables.id }).from(modelConsumables).limit(1);
  const ids: Ids = {
    technician: technician.id,
    user: user.id,
    application: application!.id,
    invoice: invoice!.id,
    shipment: shipment!.id,
    file: file!.id,
    mission: mission!.id,
    batch: lot!.id,
    resource: resourceId,
    job: jobId,
    payoutBatch: payout.batch,
    payoutLine: payout.line,
    email: email!.id,
    siteToken,
    feedToken,
    device: deviceId,
    report: report!.id,
    photo: photoId,
    consumable: consumable!.id,
  };
  return { email: technician.email, ids };
}

/** Two technicians with a recruited lot each (missions, progress, invoice, parcel, file) and an admin. */
export async function buildWorld(db: Db, uploadsDir: string): Promise<World> {
  const admin = await createAdmin(db);
  const [resource] = await db.insert(learningResources).values({ title: 'Module', description: 'd', url: 'https://r.test' }).returning();
  const [job] = await db
    .insert(jobs)
    .values({ serialNumber: 'SN-W', clientName: 'Client', defibrillatorModel: 'Zoll - AED Plus', visitType: 'Maintenance', department: '75', completionLink: 'https://c.test', address: '1 rue, 75001 Paris' })
    .returning();
  // A payout batch waiting for the bank, filled in once B has a transfer (admin routes only: same ids for both).
  const payout = { batch: crypto.randomUUID(), line: crypto.randomUUID() };
  const a = await technicianWorld(db, uploadsDir, 'A', resource!.id, job!.id, payout);
  const b = await technicianWorld(db, uploadsDir, 'B', resource!.id, job!.id, payout);
  const [transfer] = await db
    .insert(transfers)
    .values({ technicianId: b.ids.technician, invoiceId: b.ids.invoice, batchId: b.ids.batch, status: 'Enregistré', invoiceRef: 'FAC-W-1', bankAccountLast4: '0189', amountCents: 10_000 })
    .returning();
  await db.insert(payoutBatches).values({
    id: payout.batch,
    reference: 'SEPA-20260101-0W0R1D',
    executionDate: '2026-01-01',
    debtorName: 'Association Maillon',
    debtorIban: 'FR7630004000031234567890143',
    debtorBic: 'BNPAFRPPXXX',
    transferCount: 1,
    totalCents: 10_000,
  });
  await db.insert(payoutBatchLines).values({
    id: payout.line,
    batchId: payout.batch,
    lineNumber: 1,
    transferId: transfer!.id,
    invoiceId: b.ids.invoice,
    technicianId: b.ids.technician,
    creditorName: 'B Martin',
    creditorIban: 'FR7630006000011234567890189',
    amountCents: 10_000,
    remittance: 'FAC-W-1',
    endToEndId: 'SEPA-20260101-0W0R1D-001',
  });
  return { admin: { email: admin.email, userId: admin.id }, a, b };
}

const SEGMENT_KIND: Record<string, EntityKind> = {
  technicians: 'technician',
  technician: 'technician',
  users: 'user',
  applications: 'application',
  invoice: 'invoice',
  invoices: 'invoice',
  shipments: 'shipment',
  files: 'file',
  missions: 'mission',
  'mission-batches': 'batch',
  'available-for-application': 'batch',
  'learning-resources': 'resource',
  jobs: 'job',
  'payout-batches': 'payoutBatch',
  emails: 'email',
  devices: 'device',
  'visit-reports': 'report',
  consumables: 'consumable',
};
const NAME_KIND: Record<string, EntityKind> = {
  missionId: 'mission',
  technicianId: 'technician',
  invoiceId: 'invoice',
  batchId: 'batch',
  lineId: 'payoutLine',
  photoId: 'photo',
};

/** Which kind of record a path parameter names, from its name or the path segment before it. */
export function paramKind(url: string, param: string): EntityKind | undefined {
  if (param === 'token') return url.startsWith('/api/calendar/') ? 'feedToken' : 'siteToken';
  if (NAME_KIND[param]) return NAME_KIND[param];
  const segments = url.split('/');
  const index = segments.indexOf(`:${param}`);
  return SEGMENT_KIND[segments[index - 1] ?? ''];
}

/** Sum of row counts of every table: equal before and after a refused call means nothing changed. */
export async function databaseFingerprint(db: Db): Promise<string> {
  const result = await db.execute<{ t: string; n: number; h: string }>(sql`
    select 'applications' t, count(*)::int n, coalesce(md5(string_agg(status || coalesce(admin_comment, ''), ',' order by id)), '') h from applications
    union all select 'invoices', count(*)::int, coalesce(md5(string_agg(status || validated_amount_cents || reference, ',' order by id)), '') from invoices
    union all select 'transfers', count(*)::int, coalesce(md5(string_agg(status, ',' order by id)), '') from transfers
    union all select 'technicians', count(*)::int, coalesce(md5(string_agg(status || first_name || coalesce(address, '') || coalesce(iban, '') || array_to_string(departments, '|'), ',' order by id)), '') from technicians
    union all select 'users', count(*)::int, coalesce(md5(string_agg(password_hash, ',' order by id)), '') from users
    union all select 'tmd', count(*)::int, coalesce(md5(string_agg(is_completed::text || coalesce(planned_visit_date::text, '') || coalesce(technician_comments, ''), ',' order by id)), '') from technician_mission_data
    union all select 'shipments', count(*)::int, coalesce(md5(string_agg(status, ',' order by id)), '') from shipments
    union all select 'missions', count(*)::int, coalesce(md5(string_agg(status || coalesce(batch_id::text, ''), ',' order by id)), '') from missions
    union all select 'mission_batches', count(*)::int, coalesce(md5(string_agg(status || defibrillators_done, ',' order by id)), '') from mission_batches
    union all select 'resource_views', count(*)::int, '' from resource_views
    union all select 'comments', count(*)::int, '' from comments
    union all select 'email_outbox', count(*)::int, '' from email_outbox
    union all select 'stored_files', count(*)::int, '' from stored_files
    union all select 'invoices_files', count(*)::int, '' from invoices_files
    union all select 'jobs', count(*)::int, '' from jobs
    union all select 'learning_resources', count(*)::int, '' from learning_resources
    union all select 'payout_batches', count(*)::int, coalesce(md5(string_agg(status, ',' order by id)), '') from payout_batches
    union all select 'payout_batch_lines', count(*)::int, coalesce(md5(string_agg(status, ',' order by id)), '') from payout_batch_lines
  `);
  return result.rows.map((r) => `${r.t}:${r.n}:${r.h}`).join(';');
}
