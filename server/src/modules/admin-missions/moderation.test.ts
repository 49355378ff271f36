import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { VISIT_MESSAGES } from '@maillon/common/schemas/moderation';
import { jobs, missions } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

const INGEST_KEY = 'cle-ingestion-de-test-0123456789';
let ctx: TestContext;
let admin: ReturnType<typeof as>;
let tech: ReturnType<typeof as>;
let anonymous: ReturnType<typeof as>;

let serial = 0;
function visit(overrides: Record<string, unknown> = {}) {
  serial += 1;
  return {
    serialNumber: `SN-TEST-${serial}`,
    clientName: `Mairie de Test ${serial}`,
    defibrillatorModel: 'Zoll - AED Plus',
    visitType: 'Maintenance préventive',
    department: '69',
    address: '1 place Bellecour, 69002 Lyon',
    completionLink: `https://formulaires.maillon.fr/completion?serie=${serial}`,
    telSite: '04 78 00 00 00',
    emailSite: '',
    observations: '',
    ...overrides,
  };
}

beforeAll(async () => {
  ctx = await createTestContext({ INGEST_API_KEY: INGEST_KEY });
  const adminUser = await createAdmin(ctx.db);
  const { technician } = await createTechnician(ctx.db);
  admin = as(ctx.app, await login(ctx.app, adminUser.email));
  tech = as(ctx.app, await login(ctx.app, technician.email));
  anonymous = as(ctx.app, null);
});
afterAll(async () => {
  await ctx.close();
});

async function createJob(overrides: Record<string, unknown> = {}) {
  const response = await admin({ method: 'POST', url: '/api/missions/manual', payload: visit(overrides) });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; serialNumber: string; status: string; latitude: number | null };
}

describe('POST /api/missions/manual (Ajout Manuel)', () => {
  it('creates a pending job, geocoded from the address', async () => {
    const response = await admin({ method: 'POST', url: '/api/missions/manual', payload: visit({ observations: 'Code 1234' }) });
    expect(response.statusCode).toBe(201);
    const job = response.json();
    expect(job).toMatchObject({ status: 'pending', source: 'manual', observations: 'Code 1234', emailSite: null, postalCode: '69002' });
    expect(job.latitude).toBeCloseTo(45.76, 0);
    expect(job.longitude).toBeCloseTo(4.83, 0);
  });

  it('gives every required-field message of spec 02 §5 and writes nothing', async () => {
    const before = await countRows(ctx.db, 'jobs');
    const response = await admin({ method: 'POST', url: '/api/missions/manual', payload: {} });
    expect(response.statusCode).toBe(400);
    const { fields, message } = response.json();
    expect(message).toBe(VISIT_MESSAGES.serialNumber);
    expect(fields).toMatchObject({
      serialNumber: 'Le numéro de série est requis',
      clientName: 'La dénomination client est requise',
      defibrillatorModel: 'Le modèle défibrillateur est requis',
      visitType: 'Le type de visite est requis',
      department: 'Le département est requis',
      address: "L'adresse postale est requise",
      completionLink: 'Le lien de complétion est requis',
    });
    const blank = await admin({ method: 'POST', url: '/api/missions/manual', payload: visit({ serialNumber: '   ', completionLink: 'pas-une-url' }) });
    expect(blank.json().fields).toEqual({ serialNumber: 'Le numéro de série est requis', completionLink: 'Le lien de complétion doit être une URL valide' });
    const script = await admin({ method: 'POST', url: '/api/missions/manual', payload: visit({ completionLink: 'javascript:alert(1)' }) });
    expect(script.json().fields.completionLink).toBe('Le lien de complétion doit être une URL valide');
    expect(await countRows(ctx.db, 'jobs')).toBe(before);
  });

  it('takes the model and the visit type from the reference lists', async () => {
    const model = await admin({ method: 'POST', url: '/api/missions/manual', payload: visit({ defibrillatorModel: 'Marque - Inconnue' }) });
    expect(model.statusCode).toBe(400);
    expect(model.json().fields.defibrillatorModel).toBe('Veuillez choisir un modèle de la liste');
    const type = await admin({ method: 'POST', url: '/api/missions/manual', payload: visit({ visitType: 'Contrôle' }) });
    expect(type.json().fields.visitType).toBe('Veuillez choisir un type de visite de la liste');
    const department = await admin({ method: 'POST', url: '/api/missions/manual', payload: visit({ department: '99' }) });
    expect(department.json().fields.department).toBe('Département inconnu');
    const email = await admin({ method: 'POST', url: '/api/missions/manual', payload: visit({ emailSite: 'pas-un-email' }) });
    expect(email.json().fields.emailSite).toBe('Adresse email invalide');
  });

  it('refuses a second pending visit with the same serial number and visit type (409)', async () => {
    const first = visit();
    expect((await admin({ method: 'POST', url: '/api/missions/manual', payload: first })).statusCode).toBe(201);
    const again = await admin({ method: 'POST', url: '/api/missions/manual', payload: { ...first, clientName: 'Autre' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/déjà à modérer/);
  });

  it('is for the admin only', async () => {
    const before = await countRows(ctx.db, 'jobs');
    expect((await anonymous({ method: 'POST', url: '/api/missions/manual', payload: visit() })).statusCode).toBe(401);
    expect((await tech({ method: 'POST', url: '/api/missions/manual', payload: visit() })).statusCode).toBe(403);
    expect(await countRows(ctx.db, 'jobs')).toBe(before);
  });
});

describe('moderation lists, Refuser / Restaurer, Modifier, delete', () => {
  it('lists pending and refused jobs with counts equal to the lists', async () => {
    const job = await createJob();
    const refuse = await admin({ method: 'PUT', url: `/api/jobs/${job.id}/status`, payload: { status: 'refused' } });
    expect(refuse.statusCode).toBe(200);
    expect(refuse.json().status).toBe('refused');

    const pending = await admin({ method: 'GET', url: '/api/missions/moderation?limit=100' });
    const refused = await admin({ method: 'GET', url: '/api/missions/refused?limit=100' });
    const counts = (await admin({ method: 'GET', url: '/api/jobs/counts' })).json();
    expect(pending.json().length).toBe(Number(pending.headers['x-total-count']));
    expect(counts.pending).toBe(pending.json().length);
    expect(counts.refused).toBe(refused.json().length);
    expect(refused.json().map((j: { id: string }) => j.id)).toContain(job.id);
    expect(pending.json().map((j: { id: string }) => j.id)).not.toContain(job.id);
    const adminCounts = (await admin({ method: 'GET', url: '/api/admin/counts' })).json();
    expect(adminCounts.suggestions).toBe(counts.pending);

    const restore = await admin({ method: 'PUT', url: `/api/jobs/${job.id}/status`, payload: { status: 'pending' } });
    expect(restore.json().status).toBe('pending');
    const search = await admin({ method: 'GET', url: `/api/missions/moderation?search=${encodeURIComponent(job.serialNumber)}` });
    expect(search.json().map((j: { id: string }) => j.id)).toEqual([job.id]);
  });

  it('pages the lists', async () => {
    await createJob();
    await createJob();
    const page = await admin({ method: 'GET', url: '/api/missions/moderation?limit=1&offset=1' });
    expect(page.json()).toHaveLength(1);
    expect(Number(page.headers['x-total-count'])).toBeGreaterThanOrEqual(2);
    expect((await admin({ method: 'GET', url: '/api/missions/moderation?limit=0' })).statusCode).toBe(400);
  });

  it('rejects an unknown status and an unknown job', async () => {
    const job = await createJob();
    const bad = await admin({ method: 'PUT', url: `/api/jobs/${job.id}/status`, payload: { status: 'validated' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Statut invalide');
    const missing = await admin({ method: 'PUT', url: `/api/jobs/${crypto.randomUUID()}/status`, payload: { status: 'refused' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Visite introuvable');
  });

  it('edits the visit fields (Modifier) with the same validation', async () => {
    const job = await createJob();
    const edited = await admin({ method: 'PUT', url: `/api/jobs/${job.id}`, payload: visit({ serialNumber: job.serialNumber, clientName: 'Gymnase Jean Macé', defibrillatorModel: 'Modèle hors liste' }) });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: job.id, clientName: 'Gymnase Jean Macé', defibrillatorModel: 'Modèle hors liste' });
    const invalid = await admin({ method: 'PUT', url: `/api/jobs/${job.id}`, payload: visit({ address: '' }) });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields.address).toBe("L'adresse postale est requise");
    const [row] = await ctx.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row!.clientName).toBe('Gymnase Jean Macé');
    expect((await tech({ method: 'PUT', url: `/api/jobs/${job.id}`, payload: visit() })).statusCode).toBe(403);
  });

  it('deletes a job', async () => {
    const job = await createJob();
    expect((await tech({ method: 'DELETE', url: `/api/jobs/${job.id}` })).statusCode).toBe(403);
    expect((await admin({ method: 'DELETE', url: `/api/jobs/${job.id}` })).json()).toEqual({ success: true });
    expect((await admin({ method: 'DELETE', url: `/api/jobs/${job.id}` })).statusCode).toBe(404);
  });
});

describe('POST /api/jobs/:id/validate (Valider)', () => {
  it('turns the job into an active mission without a lot and deletes the job, atomically', async () => {
    const job = await createJob({ clientName: 'Piscine Garibaldi', defibrillatorModel: 'Philips - HeartStart FRx', visitType: 'Installation' });
    const response = await admin({ method: 'POST', url: `/api/jobs/${job.id}/validate` });
    expect(response.statusCode).toBe(201);
    const mission = response.json();
    const deadline = new Date();
    deadline.setUTCDate(deadline.getUTCDate() + 30);
    deadline.setUTCHours(18, 0, 0, 0);
    expect(mission).toMatchObject({
      title: 'Maintenance - Piscine Garibaldi',
      status: 'active',
      batchId: null,
      budget: 150,
      tags: ['Installation', 'Philips - HeartStart FRx'],
      serialNumber: job.serialNumber,
      location: '1 place Bellecour, 69002 Lyon',
      department: '69',
      deadline: deadline.toISOString(),
    });
    expect(mission.latitude).toBe(job.latitude);
    expect(await ctx.db.select().from(jobs).where(eq(jobs.id, job.id))).toHaveLength(0);
    const again = await admin({ method: 'POST', url: `/api/jobs/${job.id}/validate` });
    expect(again.statusCode).toBe(404);
    const unsorted = await admin({ method: 'GET', url: '/api/missions?unbatched=true&limit=100' });
    expect(unsorted.json().map((m: { id: string }) => m.id)).toContain(mission.id);
  });

  it('refuses to validate a refused job and leaves the database unchanged', async () => {
    const job = await createJob();
    await admin({ method: 'PUT', url: `/api/jobs/${job.id}/status`, payload: { status: 'refused' } });
    const missionsBefore = await countRows(ctx.db, 'missions');
    const response = await admin({ method: 'POST', url: `/api/jobs/${job.id}/validate` });
    expect(response.statusCode).toBe(409);
    expect(await countRows(ctx.db, 'missions')).toBe(missionsBefore);
    expect(await ctx.db.select().from(jobs).where(eq(jobs.id, job.id))).toHaveLength(1);
    expect((await tech({ method: 'POST', url: `/api/jobs/${job.id}/validate` })).statusCode).toBe(403);
    expect((await anonymous({ method: 'POST', url: `/api/jobs/${job.id}/validate` })).statusCode).toBe(401);
  });

  it('also works the spec way: POST /api/missions with the visit fields, then DELETE /api/jobs/:id', async () => {
    const job = await createJob({ clientName: 'École Jules Ferry' });
    const created = await admin({
      method: 'POST',
      url: '/api/missions',
      payload: {
        title: 'Maintenance - École Jules Ferry',
        description: 'Maintenance préventive',
        location: '1 place Bellecour, 69002 Lyon',
        department: '69',
        budget: 150,
        deadline: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        tags: ['Maintenance préventive', 'Zoll - AED Plus'],
        status: 'active',
        batchId: null,
        serialNumber: job.serialNumber,
        clientName: 'École Jules Ferry',
        defibrillatorModel: 'Zoll - AED Plus',
        visitType: 'Maintenance préventive',
        completionLink: 'https://formulaires.maillon.fr/x',
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ status: 'active', batchId: null, budget: 150, clientName: 'École Jules Ferry' });
    expect((await admin({ method: 'DELETE', url: `/api/jobs/${job.id}` })).statusCode).toBe(200);
    const [row] = await ctx.db.select().from(missions).where(eq(missions.id, created.json().id));
    expect(row!.budgetCents).toBe(15_000);
  });
});

describe('POST /api/jobs/ingest', () => {
  const ingest = (payload: unknown, key: string | null = INGEST_KEY) =>
    ctx.app.inject({ method: 'POST', url: '/api/jobs/ingest', payload: payload as object, headers: key ? { authorization: `Bearer ${key}` } : {} });

  it('answers 401 without the key or with a wrong one, and writes nothing', async () => {
    const before = await countRows(ctx.db, 'jobs');
    expect((await ingest(visit(), null)).statusCode).toBe(401);
    const wrong = await ingest(visit(), 'mauvaise-cle-0123456789abcdef');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('UNAUTHENTICATED');
    // An admin session is not the ingestion key.
    expect((await admin({ method: 'POST', url: '/api/jobs/ingest', payload: visit() })).statusCode).toBe(401);
    expect(await countRows(ctx.db, 'jobs')).toBe(before);
  });

  it('is closed when no key is configured', async () => {
    const closed = await createTestContext();
    try {
      const response = await closed.app.inject({ method: 'POST', url: '/api/jobs/ingest', payload: visit(), headers: { authorization: 'Bearer ' } });
      expect(response.statusCode).toBe(401);
    } finally {
      await closed.close();
    }
  });

  it('takes one visit or an array, idempotent while pending, geocoding a missing position', async () => {
    const one = visit({ address: '2 rue de la Paix', postalCode: '44000', city: 'Nantes', department: '44' });
    const first = await ingest(one);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ created: 1, duplicates: 0 });
    const [row] = await ctx.db.select().from(jobs).where(eq(jobs.id, first.json().items[0].id));
    expect(row).toMatchObject({ source: 'ingest', status: 'pending' });
    expect(row!.latitude).toBeCloseTo(47.2, 0);

    const withCoords = visit({ latitude: 48.85, longitude: 2.35 });
    const many = await ingest([one, withCoords, withCoords]);
    expect(many.json()).toMatchObject({ created: 1, duplicates: 2 });
    expect(many.json().items[0]).toEqual({ index: 0, id: first.json().items[0].id, status: 'duplicate' });
    expect(many.json().items[2].id).toBe(many.json().items[1].id);
    const [stored] = await ctx.db.select().from(jobs).where(eq(jobs.id, many.json().items[1].id));
    expect(stored).toMatchObject({ latitude: 48.85, longitude: 2.35 });

    // Once refused, the same visit may be suggested again.
    await admin({ method: 'PUT', url: `/api/jobs/${first.json().items[0].id}/status`, payload: { status: 'refused' } });
    const again = await ingest(one);
    expect(again.json()).toMatchObject({ created: 1, duplicates: 0 });
    // Restoring the refused twin would make two pending copies: refused with 409.
    const restore = await admin({ method: 'PUT', url: `/api/jobs/${first.json().items[0].id}/status`, payload: { status: 'pending' } });
    expect(restore.statusCode).toBe(409);
  });

  it('validates each item and writes nothing when one is invalid', async () => {
    const before = await countRows(ctx.db, 'jobs');
    const response = await ingest([visit(), visit({ completionLink: 'ftp://exemple.fr' }), visit({ serialNumber: '' })]);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      '1.completionLink': 'Le lien de complétion doit être une URL valide',
      '2.serialNumber': 'Le numéro de série est requis',
    });
    expect((await ingest([])).json().message).toBe('Aucune visite à importer');
    expect((await ingest(42)).statusCode).toBe(400);
    expect(await countRows(ctx.db, 'jobs')).toBe(before);
  });
});

describe('POST /api/jobs/import-csv', () => {
  const header = 'Numéro de série;Dénomination client;Modèle défibrillateur;Type de visite;Département;Adresse postale;Lien de complétion;Téléphone site;Email site;Observations';
  const line = (n: number, overrides: Partial<Record<'serial' | 'link' | 'type', string>> = {}) =>
    [
      overrides.serial ?? `CSV-${n}`,
      `Client CSV ${n}`,
      'Schiller - FRED PA-1',
      overrides.type ?? 'Maintenance',
      '33',
      `${n} cours de l'Intendance, 33000 Bordeaux`,
      overrides.link ?? `https://formulaires.maillon.fr/csv/${n}`,
      '05 56 00 00 00',
      '',
      'Accès par le parking',
    ].join(';');

  it('previews per-row errors without writing anything', async () => {
    const before = await countRows(ctx.db, 'jobs');
    const csv = [header, line(1), line(2, { link: 'pas-un-lien' }), line(3, { serial: '' }), line(4, { serial: 'CSV-1' })].join('\n');
    const response = await admin({ method: 'POST', url: '/api/jobs/import-csv?mode=preview', payload: csv, headers: { 'content-type': 'text/csv' } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ mode: 'preview', total: 4, valid: 2, invalid: 2, duplicates: 1, created: 0 });
    expect(body.rows[1]).toMatchObject({ line: 3, errors: { completionLink: 'Le lien de complétion doit être une URL valide' } });
    expect(body.rows[2].errors).toEqual({ serialNumber: 'Le numéro de série est requis' });
    expect(body.rows[3]).toMatchObject({ line: 5, duplicate: true, errors: {} });
    expect(await countRows(ctx.db, 'jobs')).toBe(before);

    const commit = await admin({ method: 'POST', url: '/api/jobs/import-csv?mode=commit', payload: csv, headers: { 'content-type': 'text/csv' } });
    expect(commit.statusCode).toBe(400);
    expect(commit.json().message).toBe('Le fichier contient 2 lignes en erreur : aucune visite importée');
    expect(await countRows(ctx.db, 'jobs')).toBe(before);
  });

  it('commits a valid file (multipart upload, comma separated, BOM) in one go and skips duplicates', async () => {
    const before = await countRows(ctx.db, 'jobs');
    const csv = `\uFEFFserialNumber,clientName,defibrillatorModel,visitType,department,address,completionLink,latitude,longitude\n` +
      `MP-1,Client A,Zoll - AED 3,Installation,13,"10 rue Paradis, 13001 Marseille",https://f.maillon.fr/1,43.3,5.37\n` +
      `MP-2,Client B,Zoll - AED 3,Installation,13,"12 rue Paradis, 13001 Marseille",https://f.maillon.fr/2,,\n`;
    const boundary = '----maillon';
    const multipart = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="visites.csv"',
      'Content-Type: text/csv',
      '',
      csv,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const send = (mode: string) =>
      admin({ method: 'POST', url: `/api/jobs/import-csv?mode=${mode}`, payload: multipart, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    const commit = await send('commit');
    expect(commit.statusCode).toBe(200);
    expect(commit.json()).toMatchObject({ mode: 'commit', total: 2, created: 2, invalid: 0 });
    expect(await countRows(ctx.db, 'jobs')).toBe(before + 2);
    const [marseille] = await ctx.db.select().from(jobs).where(eq(jobs.serialNumber, 'MP-2'));
    expect(marseille).toMatchObject({ source: 'csv', postalCode: '13001' });
    expect(marseille!.latitude).toBeCloseTo(43.3, 0);
    // Same file again: everything is already pending, nothing new.
    const again = await send('commit');
    expect(again.json()).toMatchObject({ created: 0, duplicates: 2 });
    expect(await countRows(ctx.db, 'jobs')).toBe(before + 2);
  });

  it('refuses unreadable files and non-admins', async () => {
    const send = (payload: string) => admin({ method: 'POST', url: '/api/jobs/import-csv', payload, headers: { 'content-type': 'text/csv' } });
    expect((await send('')).json().message).toBe('Le fichier CSV est vide');
    expect((await send('a,b,c\n1,2,3')).json().message).toMatch(/En-têtes du fichier CSV non reconnus/);
    expect((await send('serialNumber,clientName\n')).json().message).toBe('Le fichier CSV ne contient aucune visite');
    expect((await admin({ method: 'POST', url: '/api/jobs/import-csv?mode=tout', payload: 'x', headers: { 'content-type': 'text/csv' } })).statusCode).toBe(400);
    expect((await tech({ method: 'POST', url: '/api/jobs/import-csv', payload: `${header}\n${line(9)}`, headers: { 'content-type': 'text/csv' } })).statusCode).toBe(403);
    expect((await anonymous({ method: 'POST', url: '/api/jobs/import-csv', payload: `${header}\n${line(9)}`, headers: { 'content-type': 'text/csv' } })).statusCode).toBe(401);
  });
});
