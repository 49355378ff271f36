import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import { deviceDetailSchema } from '@maillon/common/schemas/devices';
import { visitReportContextSchema, visitReportSchema, visitPhotoSchema } from '@maillon/common/schemas/visit-reports';
import { applications, devices, emailAttachments, emailOutbox, invoices, missionBatches, missions, storedFiles, technicianMissionData, visitReports } from '../../db/schema';
import { finishApplication } from '../lifecycle/lifecycle.service';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { listFiles, multipartBody, sampleFiles } from '../../../test/multipart';
import { readPdf } from '../../../test/pdf';
import { completeReport, dayFromToday, makeLotWithDevices, realJpeg, realPng } from '../../../test/device-fixtures';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx.db);
  techA = await createTechnician(ctx.db, { firstName: 'Camille', lastName: 'Laurent', companyName: 'Laurent Maintenance', siret: '81234567800010' });
  techB = await createTechnician(ctx.db, { firstName: 'Bruno', lastName: 'Autre' });
  cookieA = await login(ctx.app, techA.technician.email);
  cookieB = await login(ctx.app, techB.technician.email);
  cookieAdmin = await login(ctx.app, admin.email);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const asA = () => as(ctx.app, cookieA);
const url = (missionId: string, rest = '') => `/api/missions/${missionId}/visit-report${rest}`;

function uploadPhoto(cookie: string, missionId: string, reportId: string, bytes: Buffer, { photoId = crypto.randomUUID(), fileName = 'photo.jpg' } = {}) {
  const body = multipartBody({ reportId }, { file: { fileName, content: bytes, contentType: 'image/jpeg' } });
  return as(ctx.app, cookie)({ method: 'PUT', url: url(missionId, `/photos/${photoId}`), payload: body.payload, headers: body.headers });
}

/** Rows and stored objects that a refused request must leave as they were. */
async function footprint() {
  const tables = ['visit_reports', 'visit_report_photos', 'visit_report_versions', 'stored_files', 'email_outbox', 'technician_mission_data'];
  const counts = await Promise.all(tables.map((t) => countRows(ctx.db, t)));
  const reports = await ctx.db.execute<{ h: string }>(sql`select coalesce(md5(string_agg(id::text || version || coalesce(draft::text, ''), ',' order by id)), '') as h from visit_reports`);
  return `${counts.join(',')}|${reports.rows[0]!.h}|${listFiles(ctx.app.config.uploadsDir).length}`;
}

/** The documented fingerprint, recomputed here: canonical JSON (sorted keys, no spaces) of the report's data, SHA-256. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value as object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

describe('visit report: draft, photos, complete report, PV', () => {
  let lot: Awaited<ReturnType<typeof makeLotWithDevices>>;
  let missionId: string;
  let reportId: string;
  const photoIds = [crypto.randomUUID(), crypto.randomUUID()];

  beforeAll(async () => {
    lot = await makeLotWithDevices(ctx.db, { technicianId: techA.technician.id, serials: ['PV-2024-0001', 'PV-2024-0002', 'PV-2024-0003'] });
    missionId = lot.missionIds[0]!;
    reportId = crypto.randomUUID();
  });

  it('answers the visit with no report yet, and the device the registry knows', async () => {
    const response = await asA()({ method: 'GET', url: url(missionId) });
    expect(response.statusCode, response.body).toBe(200);
    const context = visitReportContextSchema.parse(response.json());
    expect(context).toMatchObject({ editable: true, isCompleted: false, report: null, mission: { serialNumber: 'PV-2024-0001', hasEmailSite: true }, lot: { id: lot.batchId } });
    expect(context.device?.functionalState).toBe('Inconnu');
  });

  it('keeps a draft on the server; saving it again changes nothing', async () => {
    const draft = { id: reportId, outcome: 'En fonctionnement', observations: 'En cours…', checklist: { battery: 'ok' }, batteryExpiry: dayFromToday(800) };
    const first = await asA()({ method: 'PUT', url: url(missionId, '/draft'), payload: draft });
    expect(first.statusCode, first.body).toBe(200);
    const report = visitReportSchema.parse(first.json());
    expect(report).toMatchObject({ id: reportId, status: 'draft', version: 0 });
    expect(report.draft?.values).toMatchObject({ outcome: 'En fonctionnement', observations: 'En cours…', checklist: { battery: 'ok' } });
    const before = await footprint();
    const again = await asA()({ method: 'PUT', url: url(missionId, '/draft'), payload: draft });
    expect(again.statusCode).toBe(200);
    expect(await footprint()).toBe(before);
    const other = await asA()({ method: 'PUT', url: url(missionId, '/draft'), payload: { ...draft, id: crypto.randomUUID() } });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toMatch(/Un rapport existe déjà pour cette visite/);
  });

  it('stores photos resized, upright and without EXIF; the same photo id again stores nothing more', async () => {
    const jpeg = await realJpeg(3000, 2000, { gps: true });
    expect(jpeg.toString('latin1')).toContain('TelephoneTest');
    const first = await uploadPhoto(cookieA, missionId, reportId, jpeg, { photoId: photoIds[0]! });
    expect(first.statusCode, first.body).toBe(200);
    const photo = visitPhotoSchema.parse(first.json());
    expect(Math.max(photo.width, photo.height)).toBe(1600);
    const second = await uploadPhoto(cookieA, missionId, reportId, await realPng(), { photoId: photoIds[1]!, fileName: 'plan.png' });
    expect(second.statusCode, second.body).toBe(200);

    const stored = await asA()({ method: 'GET', url: url(missionId, `/photos/${photoIds[0]}`) });
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-type']).toBe('image/jpeg');
    const bytes = stored.rawPayload;
    expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(photo.sha256);
    expect(bytes.toString('latin1')).not.toContain('TelephoneTest');
    expect(bytes.toString('latin1')).not.toContain('Exif');
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.format).toBe('jpeg');

    const before = await footprint();
    const replay = await uploadPhoto(cookieA, missionId, reportId, jpeg, { photoId: photoIds[0]! });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().sha256).toBe(photo.sha256);
    expect(await footprint()).toBe(before);
  });

  it('refuses a non-image, a file over 10 MB and a 7th photo with 400 and French messages, writing nothing', async () => {
    const before = await footprint();
    for (const [bytes, message] of [
      [sampleFiles.pdf(), /seules les images JPEG ou PNG/],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), /seules les images JPEG ou PNG/],
      [Buffer.concat([await realJpeg(200, 100), Buffer.alloc(UPLOAD_MAX_BYTES)]), /dépasse la taille maximale de 10 Mo/],
    ] as const) {
      const response = await uploadPhoto(cookieA, missionId, reportId, bytes);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect(await footprint()).toBe(before);

    const extra: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const id = crypto.randomUUID();
      expect((await uploadPhoto(cookieA, missionId, reportId, await realJpeg(400, 300), { photoId: id })).statusCode).toBe(200);
      extra.push(id);
    }
    const full = await footprint();
    const seventh = await uploadPhoto(cookieA, missionId, reportId, await realJpeg(400, 300));
    expect(seventh.statusCode).toBe(400);
    expect(seventh.json().message).toBe('6 photos au maximum par rapport');
    expect(await footprint()).toBe(full);
    const tooMany = await asA()({ method: 'PUT', url: url(missionId), payload: await completeReport({ id: reportId, photoIds: [...photoIds, ...extra, crypto.randomUUID()] }) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('6 photos au maximum par rapport');
    expect(await footprint()).toBe(full);
    for (const id of extra) expect((await asA()({ method: 'DELETE', url: url(missionId, `/photos/${id}`) })).statusCode).toBe(200);
    expect((await asA()({ method: 'DELETE', url: url(missionId, `/photos/${extra[0]}`) })).json()).toEqual({ success: true });
  });

  it('refuses an expiry date in the past or a missing outcome with 400 and French messages, writing nothing', async () => {
    const before = await footprint();
    const past = await asA()({ method: 'PUT', url: url(missionId), payload: await completeReport({ id: reportId, photoIds, adultPadsExpiry: dayFromToday(-1) }) });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toMatch(/Péremption des électrodes adultes : la date est dépassée/);
    expect(past.json().fields.adultPadsExpiry).toBeDefined();
    const noOutcome = await asA()({ method: 'PUT', url: url(missionId), payload: await completeReport({ id: reportId, photoIds, outcome: null }) });
    expect(noOutcome.statusCode).toBe(400);
    expect(noOutcome.json().message).toBe('Indiquez le résultat de la visite');
    const unsigned = await asA()({ method: 'PUT', url: url(missionId), payload: await completeReport({ id: reportId, photoIds, signature: null, unsignedReason: null }) });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toMatch(/Faites signer le contact du site/);
    const unknownPhoto = await asA()({ method: 'PUT', url: url(missionId), payload: await completeReport({ id: reportId, photoIds: [crypto.randomUUID()] }) });
    expect(unknownPhoto.statusCode).toBe(400);
    expect(await footprint()).toBe(before);
  });

  let body: Awaited<ReturnType<typeof completeReport>>;
  it('saves the complete report: Effectué through the lot lifecycle, the device updated, the PV stored and e-mailed', async () => {
    body = await completeReport({ id: reportId, photoIds });
    const response = await asA()({ method: 'PUT', url: url(missionId), payload: body });
    expect(response.statusCode, response.body).toBe(200);
    const context = visitReportContextSchema.parse(response.json());
    expect(context.isCompleted).toBe(true);
    expect(context.report).toMatchObject({ status: 'final', version: 1, outcome: 'En fonctionnement', signerName: 'Mme Claire Durand', hasSignature: true, draft: null });
    expect(context.report!.photos.map((p) => p.id)).toEqual(photoIds);

    const [lotRow] = await ctx.db.select({ done: missionBatches.defibrillatorsDone }).from(missionBatches).where(eq(missionBatches.id, lot.batchId));
    expect(lotRow!.done).toBe(1);
    const [invoice] = await ctx.db.select({ validated: invoices.validatedAmountCents, progression: invoices.progression }).from(invoices).where(eq(invoices.batchId, lot.batchId));
    expect(invoice).toEqual({ validated: 10_000, progression: '1/3' });

    const [device] = await ctx.db.select().from(devices).where(eq(devices.serialKey, 'PV20240001'));
    const today = dayFromToday(0);
    expect(device).toMatchObject({ functionalState: 'En fonctionnement', batteryExpiry: body.batteryExpiry, adultPadsExpiry: body.adultPadsExpiry, pediatricPadsPresent: true, pediatricPadsExpiry: body.pediatricPadsExpiry });
    expect(device!.lastMaintenanceOn).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(body.visitedAt)));
    expect(device!.nextMaintenanceDue! > today).toBe(true);

    const emails = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'visit-report'));
    expect(emails).toHaveLength(1);
    expect(emails[0]!.to).toMatch(/^site-\d+-1@exemple\.fr$/);
    expect(emails[0]!.text).toContain(context.report!.fingerprint!);
    const attachments = await ctx.db.select().from(emailAttachments).where(eq(emailAttachments.emailId, emails[0]!.id));
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({ contentType: 'application/pdf', content: null });
    expect(attachments[0]!.storageKey).toMatch(/^visit-report\//);
  });

  it('prints the PV: device, site, technician, outcome, dates in fr-FR, signer, photos and the fingerprint', async () => {
    const response = await asA()({ method: 'GET', url: url(missionId, '/pdf') });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(String(response.headers['content-disposition'])).toMatch(/^attachment; filename="PV-maintenance-PV-2024-0001-v1\.pdf"/);
    const pdf = await readPdf(response.rawPayload);
    const text = pdf.pages.join('\n');
    const report = visitReportContextSchema.parse((await asA()({ method: 'GET', url: url(missionId) })).json()).report!;
    const fr = (day: string) => day.split('-').reverse().join('/');
    for (const expected of [
      'Procès-verbal de maintenance',
      'PV-2024-0001',
      'Zoll AED Plus',
      'Mairie annexe Paris',
      'Camille Laurent',
      'Laurent Maintenance',
      '81234567800010',
      'En fonctionnement',
      'Mme Claire Durand',
      fr(body.batteryExpiry as string),
      fr(body.adultPadsExpiry as string),
      'Électrodes Zoll CPR-D-padz (AED Plus)',
      'Signalétique à remplacer',
      'À signaler',
      `Empreinte SHA-256 du rapport : ${report.fingerprint}`,
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).toMatch(/Visite du \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}/);
    // Two photos and the signature.
    expect(pdf.images.reduce((a, b) => a + b, 0)).toBe(3);

    // The fingerprint is the documented one: canonical JSON of the data, photos and signature by their SHA-256.
    const [row] = await ctx.db.select({ signatureFileId: visitReports.signatureFileId }).from(visitReports).where(eq(visitReports.id, report.id));
    const [signatureFile] = await ctx.db.select({ key: storedFiles.storageKey }).from(storedFiles).where(eq(storedFiles.id, row!.signatureFileId!));
    const signature = (await ctx.app.storage.read(signatureFile!.key))!;
    const data = {
      format: 'maillon-visit-report/1',
      reportId: report.id,
      missionId,
      technicianId: techA.technician.id,
      serialNumber: 'PV-2024-0001',
      visitedAt: new Date(body.visitedAt as string).toISOString(),
      outcome: 'En fonctionnement',
      checklist: body.checklist,
      batteryExpiry: body.batteryExpiry,
      adultPadsExpiry: body.adultPadsExpiry,
      pediatricPadsPresent: true,
      pediatricPadsExpiry: body.pediatricPadsExpiry,
      consumablesReplaced: body.consumablesReplaced,
      observations: body.observations,
      signerName: body.signerName,
      signedAt: new Date(body.signedAt as string).toISOString(),
      signatureSha256: crypto.createHash('sha256').update(signature).digest('hex'),
      unsignedReason: null,
      photosSha256: report.photos.map((p) => p.sha256),
    };
    expect(crypto.createHash('sha256').update(canonical(data)).digest('hex')).toBe(report.fingerprint);
  });

  it('replaying the same save changes nothing (no new version, no second e-mail); a corrected report is version 2', async () => {
    const before = await footprint();
    const replay = await asA()({ method: 'PUT', url: url(missionId), payload: body });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().report.version).toBe(1);
    expect(await footprint()).toBe(before);

    // The form sends back the stored signature with a correction.
    const saved = visitReportContextSchema.parse((await asA()({ method: 'GET', url: url(missionId) })).json()).report!;
    const corrected = await asA()({ method: 'PUT', url: url(missionId), payload: { ...body, signature: saved.signature, observations: 'Signalétique remplacée sur place.' } });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json().report.version).toBe(2);
    expect(await countRows(ctx.db, 'visit_report_versions')).toBe(2);
    const emails = await ctx.db.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.kind, 'visit-report'));
    expect(emails).toHaveLength(2);
    const pdf = await readPdf((await asA()({ method: 'GET', url: url(missionId, '/pdf') })).rawPayload);
    expect(pdf.pages.join('\n')).toContain('Signalétique remplacée sur place.');
  });

  it('another technician gets 404 on the report, its photos and its PDF; the admin reads them', async () => {
    const asB = as(ctx.app, cookieB);
    const report = visitReportContextSchema.parse((await asA()({ method: 'GET', url: url(missionId) })).json()).report!;
    for (const path of [url(missionId), url(missionId, `/photos/${photoIds[0]}`), url(missionId, '/pdf'), `/api/visit-reports/${report.id}/pdf`]) {
      const response = await asB({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
    const [photo] = await ctx.db.execute<{ file_id: string }>(sql`select file_id from visit_report_photos where id = ${photoIds[0]}`).then((r) => r.rows);
    expect((await asB({ method: 'GET', url: `/api/files/${photo!.file_id}` })).statusCode).toBe(404);
    const before = await footprint();
    for (const request of [
      { method: 'PUT' as const, url: url(missionId, '/draft'), payload: { id: report.id } },
      { method: 'PUT' as const, url: url(missionId), payload: body },
      { method: 'DELETE' as const, url: url(missionId, `/photos/${photoIds[0]}`) },
    ]) {
      expect((await asB(request)).statusCode).toBe(404);
    }
    expect((await uploadPhoto(cookieB, missionId, report.id, await realJpeg(100, 100))).statusCode).toBe(404);
    expect(await footprint()).toBe(before);

    const asAdmin = as(ctx.app, cookieAdmin);
    expect((await asAdmin({ method: 'GET', url: url(missionId) })).statusCode).toBe(200);
    expect((await asAdmin({ method: 'GET', url: `/api/visit-reports/${report.id}/pdf` })).statusCode).toBe(200);
    expect((await asAdmin({ method: 'GET', url: url(missionId, `/photos/${photoIds[1]}`) })).statusCode).toBe(200);
    expect((await asAdmin({ method: 'PUT', url: url(missionId), payload: body })).statusCode).toBe(403);
  });

  it('shows the plain toggle as « sans rapport » on the device page, and keeps the toggle working', async () => {
    const toggled = lot.missionIds[1]!;
    const response = await asA()({ method: 'PATCH', url: `/api/technician-mission-data/${toggled}/${techA.technician.id}`, payload: { isCompleted: true } });
    expect(response.statusCode).toBe(200);
    const [mission] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, toggled));
    const detail = deviceDetailSchema.parse((await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/devices/${mission!.deviceId}` })).json());
    expect(detail.visits[0]).toMatchObject({ isCompleted: true, withoutReport: true, reports: [] });
    const reported = deviceDetailSchema.parse(
      (await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/devices/${(await ctx.db.select({ d: missions.deviceId }).from(missions).where(eq(missions.id, missionId)))[0]!.d}` })).json(),
    );
    expect(reported.visits[0]).toMatchObject({ isCompleted: true, withoutReport: false, reports: [{ status: 'final', version: 2, hasPdf: true, technicianName: 'Camille Laurent' }] });
    const list = await as(ctx.app, cookieAdmin)({ method: 'GET', url: '/api/devices?search=PV-2024-0002' });
    expect(list.json()[0].withoutReportCount).toBe(1);
  });

  it('a site that could not be reached is reported without marking the device Effectué', async () => {
    const missionId3 = lot.missionIds[2]!;
    const response = await asA()({
      method: 'PUT',
      url: url(missionId3),
      payload: { id: crypto.randomUUID(), visitedAt: new Date().toISOString(), outcome: 'Site inaccessible', observations: 'Bâtiment fermé, gardien absent.', unsignedReason: 'Personne sur place' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ isCompleted: false, report: { status: 'final', outcome: 'Site inaccessible' } });
    const [progress] = await ctx.db
      .select({ done: technicianMissionData.isCompleted })
      .from(technicianMissionData)
      .where(and(eq(technicianMissionData.missionId, missionId3), eq(technicianMissionData.technicianId, techA.technician.id)));
    expect(progress?.done ?? false).toBe(false);
  });
});

describe('visit report: only on the caller’s Recruté lot', () => {
  it('answers 404 to a technician not recruited on the lot and 409 once the lot is finished', async () => {
    const pending = await makeLotWithDevices(ctx.db, { technicianId: techA.technician.id, serials: ['NR-0001'], recruit: false });
    expect((await asA()({ method: 'GET', url: url(pending.missionIds[0]!) })).statusCode).toBe(404);
    expect((await asA()({ method: 'PUT', url: url(pending.missionIds[0]!, '/draft'), payload: { id: crypto.randomUUID() } })).statusCode).toBe(404);

    const lot = await makeLotWithDevices(ctx.db, { technicianId: techA.technician.id, serials: ['FIN-0001'] });
    // Done before the finish, so the device stays in the finished lot (undone ones go to the system lot).
    expect((await asA()({ method: 'PATCH', url: `/api/technician-mission-data/${lot.missionIds[0]}/${techA.technician.id}`, payload: { isCompleted: true } })).statusCode).toBe(200);
    await ctx.db.transaction((tx) => finishApplication(tx, { applicationId: lot.applicationId, force: true }));
    const [application] = await ctx.db.select({ status: applications.status }).from(applications).where(eq(applications.id, lot.applicationId));
    expect(application!.status).toBe('Terminé');
    const read = await asA()({ method: 'GET', url: url(lot.missionIds[0]!) });
    expect(read.statusCode).toBe(200);
    expect(read.json().editable).toBe(false);
    const before = await footprint();
    const save = await asA()({ method: 'PUT', url: url(lot.missionIds[0]!), payload: await completeReport() });
    expect(save.statusCode).toBe(409);
    expect(save.json().message).toBe('Ce lot n’est plus en cours : le rapport ne peut plus être modifié');
    expect((await uploadPhoto(cookieA, lot.missionIds[0]!, crypto.randomUUID(), await realJpeg(100, 100))).statusCode).toBe(409);
    expect(await footprint()).toBe(before);
  });

  it('a mission without a usable serial number still gets its report (no device to update)', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId: techA.technician.id, serials: ['inconnu'], emailSite: false });
    const emails = await countRows(ctx.db, 'email_outbox');
    const response = await asA()({ method: 'PUT', url: url(lot.missionIds[0]!), payload: await completeReport() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().report).toMatchObject({ status: 'final', deviceId: null });
    // No site e-mail: the PV is stored, nothing is sent.
    expect(await countRows(ctx.db, 'email_outbox')).toBe(emails);
  });
});

describe('visit report: the offline queue’s Idempotency-Key on its three writes', () => {
  const keyed = (key: string) => ({ 'idempotency-key': key });
  const newKey = () => `rapport-${crypto.randomUUID()}`;
  const replayed = (response: { headers: Record<string, unknown> }) => response.headers['idempotent-replayed'] === 'true';

  it('the draft, a photo and the complete report sent twice with their keys are applied once and answered the same', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId: techA.technician.id, serials: ['IDEM-0001'] });
    const missionId = lot.missionIds[0]!;
    const reportId = crypto.randomUUID();
    const photoId = crypto.randomUUID();

    // Draft: the second send is the first answer again, nothing runs (its updatedAt would otherwise move).
    const draftKey = newKey();
    const draft = { id: reportId, outcome: 'En fonctionnement', observations: 'Saisi hors ligne' };
    const firstDraft = await asA()({ method: 'PUT', url: url(missionId, '/draft'), payload: draft, headers: keyed(draftKey) });
    expect(firstDraft.statusCode, firstDraft.body).toBe(200);
    expect(replayed(firstDraft)).toBe(false);
    const afterDraft = await footprint();
    const againDraft = await asA()({ method: 'PUT', url: url(missionId, '/draft'), payload: draft, headers: keyed(draftKey) });
    expect(againDraft.statusCode).toBe(200);
    expect(replayed(againDraft)).toBe(true);
    expect(againDraft.body).toBe(firstDraft.body);
    expect(visitReportSchema.parse(againDraft.json()).draft?.values).toMatchObject({ observations: 'Saisi hors ligne' });
    expect(await footprint()).toBe(afterDraft);

    // Photo (multipart): a new boundary on each attempt, as a browser builds it; one stored file.
    const photoKey = newKey();
    const jpeg = await realJpeg(800, 600);
    const sendPhoto = () => {
      const form = multipartBody({ reportId }, { file: { fileName: 'photo.jpg', content: jpeg, contentType: 'image/jpeg' } });
      return asA()({ method: 'PUT', url: url(missionId, `/photos/${photoId}`), payload: form.payload, headers: { ...form.headers, ...keyed(photoKey) } });
    };
    const filesBefore = await countRows(ctx.db, 'stored_files');
    const firstPhoto = await sendPhoto();
    expect(firstPhoto.statusCode, firstPhoto.body).toBe(200);
    const afterPhoto = await footprint();
    expect(await countRows(ctx.db, 'stored_files')).toBe(filesBefore + 1);
    const againPhoto = await sendPhoto();
    expect(againPhoto.statusCode).toBe(200);
    expect(replayed(againPhoto)).toBe(true);
    expect(againPhoto.body).toBe(firstPhoto.body);
    expect(visitPhotoSchema.parse(againPhoto.json()).id).toBe(photoId);
    expect(await footprint()).toBe(afterPhoto);

    // Complete report: one version, one PV, one e-mail, the device Effectué once.
    const reportKey = newKey();
    const body = await completeReport({ id: reportId, photoIds: [photoId] });
    const emailsBefore = await countRows(ctx.db, 'email_outbox');
    const firstReport = await asA()({ method: 'PUT', url: url(missionId), payload: body, headers: keyed(reportKey) });
    expect(firstReport.statusCode, firstReport.body).toBe(200);
    const context = visitReportContextSchema.parse(firstReport.json());
    expect(context).toMatchObject({ isCompleted: true, report: { status: 'final', version: 1 } });
    const afterReport = await footprint();
    const againReport = await asA()({ method: 'PUT', url: url(missionId), payload: body, headers: keyed(reportKey) });
    expect(againReport.statusCode).toBe(200);
    expect(replayed(againReport)).toBe(true);
    expect(againReport.body).toBe(firstReport.body);
    expect(await footprint()).toBe(afterReport);
    expect(await countRows(ctx.db, 'email_outbox')).toBe(emailsBefore + 1);
    const versions = await ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from visit_report_versions where report_id = ${reportId}`);
    expect(versions.rows[0]!.n).toBe(1);
    const [lotRow] = await ctx.db.select({ done: missionBatches.defibrillatorsDone }).from(missionBatches).where(eq(missionBatches.id, lot.batchId));
    expect(lotRow!.done).toBe(1);

    // The same key with another body is not this request: 422, nothing runs.
    const reused = await asA()({ method: 'PUT', url: url(missionId), payload: { ...body, observations: 'Autre texte' }, headers: keyed(reportKey) });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe('Cette clé d’idempotence a déjà servi pour une autre requête');
    expect(await footprint()).toBe(afterReport);
  });

  it('a report refused because the lot was finished meanwhile is refused again, the same way, under its key', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId: techA.technician.id, serials: ['IDEM-0002', 'IDEM-0003'] });
    expect((await asA()({ method: 'PATCH', url: `/api/technician-mission-data/${lot.missionIds[0]}/${techA.technician.id}`, payload: { isCompleted: true } })).statusCode).toBe(200);
    await ctx.db.transaction((tx) => finishApplication(tx, { applicationId: lot.applicationId, force: true }));
    const key = newKey();
    const body = await completeReport();
    const before = await footprint();
    const first = await asA()({ method: 'PUT', url: url(lot.missionIds[0]!), payload: body, headers: keyed(key) });
    expect(first.statusCode).toBe(409);
    expect(first.json().message).toBe('Ce lot n’est plus en cours : le rapport ne peut plus être modifié');
    const again = await asA()({ method: 'PUT', url: url(lot.missionIds[0]!), payload: body, headers: keyed(key) });
    expect(again.statusCode).toBe(409);
    expect(replayed(again)).toBe(true);
    expect(again.body).toBe(first.body);
    expect(await footprint()).toBe(before);
  });
});
