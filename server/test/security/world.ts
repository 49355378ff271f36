import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { applications, jobs, learningResources, missionBatches, missions, resourceViews, shipments, storedFiles, technicianMissionData } from '../../src/db/schema';
import { recruitApplication } from '../../src/modules/lifecycle/lifecycle.service';
import { createAdmin, createTechnician } from '../helpers';

export type EntityKind = 'technician' | 'user' | 'application' | 'invoice' | 'shipment' | 'file' | 'mission' | 'batch' | 'resource' | 'job';
export type Ids = Record<EntityKind, string>;

export interface World {
  admin: { email: string; userId: string };
  a: { email: string; ids: Ids };
  b: { email: string; ids: Ids };
}

async function technicianWorld(db: Db, uploadsDir: string, label: string, resourceId: string, jobId: string) {
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
      { title: `Mission ${label} 1`, batchId: lot!.id, status: 'active', location: '1 rue de Rivoli, 75001 Paris', postalCode: '75001', city: 'Paris', emailSite: 'site@exemple.fr' },
      { title: `Mission ${label} 2`, batchId: lot!.id, status: 'active', location: '3 place Bellecour, 69002 Lyon', postalCode: '69002', city: 'Lyon' },
    ])
    .returning();
  const [application] = await db.insert(applications).values({ batchId: lot!.id, technicianId: technician.id }).returning();
  await db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
  await db.insert(technicianMissionData).values({ missionId: mission!.id, technicianId: technician.id, plannedVisitDate: new Date() });
  const [invoice] = await db.execute<{ id: string }>(sql`select id from invoices where batch_id = ${lot!.id}`).then((r) => r.rows);
  const [shipment] = await db.insert(shipments).values({ batchId: lot!.id, technicianId: technician.id, status: 'in_transit', trackingNumber: 'MR1' }).returning();
  const storageKey = `cv/${crypto.randomUUID()}.pdf`;
  fs.mkdirSync(path.join(uploadsDir, 'cv'), { recursive: true });
  fs.writeFileSync(path.join(uploadsDir, storageKey), '%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n');
  const [file] = await db
    .insert(storedFiles)
    .values({ technicianId: technician.id, kind: 'cv', storageKey, originalName: 'cv.pdf', mimeType: 'application/pdf', size: 40 })
    .returning();
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
  const a = await technicianWorld(db, uploadsDir, 'A', resource!.id, job!.id);
  const b = await technicianWorld(db, uploadsDir, 'B', resource!.id, job!.id);
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
};
const NAME_KIND: Record<string, EntityKind> = { missionId: 'mission', technicianId: 'technician', invoiceId: 'invoice', batchId: 'batch' };

/** Which kind of record a path parameter names, from its name or the path segment before it. */
export function paramKind(url: string, param: string): EntityKind | undefined {
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
  `);
  return result.rows.map((r) => `${r.t}:${r.n}:${r.h}`).join(';');
}
