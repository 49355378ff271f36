import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { registrationResponseSchema } from '@maillon/common/schemas/registration';
import { sessionResponseSchema } from '@maillon/common/schemas/auth';
import { errorResponseSchema } from '@maillon/common/schemas/errors';
import { emailOutbox, rateLimits, storedFiles, technicians, users } from '../../db/schema';
import { as, countRows, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { listFiles, multipartBody, sampleFiles, type MultipartFileInput } from '../../../test/multipart';
import { REGISTER_LIMITS } from './registration.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.delete(rateLimits);
});

let counter = 0;
const uniqueEmail = () => `inscrit-${Date.now()}-${(counter += 1)}@exemple.fr`;

function validFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: uniqueEmail(),
    password: 'Un-Mot-De-Passe-Solide',
    phone: '06 12 34 56 78',
    companyName: 'Ada Maintenance',
    siret: '732 829 320 00074',
    iban: 'FR76 3000 6000 0112 3456 7890 189',
    preferredRelayPoint: 'Relais Tabac du Centre',
    comments: 'Disponible le week-end',
    address: '12 rue de la Paix',
    city: 'Paris',
    postalCode: '75002',
    country: 'France',
    departments: JSON.stringify(['75', '92']),
    termsAccepted: 'true',
    ...overrides,
  };
}

function register(fields: Record<string, string>, files: Record<string, MultipartFileInput> = {}, headers: Record<string, string> = {}, remoteAddress?: string) {
  const body = multipartBody(fields, files);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/technicians/register',
    payload: body.payload,
    headers: { ...body.headers, ...headers },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

async function snapshot() {
  return {
    users: await countRows(ctx.db, 'users'),
    technicians: await countRows(ctx.db, 'technicians'),
    files: await countRows(ctx.db, 'stored_files'),
    outbox: await countRows(ctx.db, 'email_outbox'),
    disk: listFiles(ctx.app.config.uploadsDir).length,
  };
}

describe('POST /api/technicians/register', () => {
  it('creates the user, the pending technician, its PDF CV and PNG identity document, and the "inscription reçue" e-mail', async () => {
    const fields = validFields({ email: 'Ada.Lovelace@Exemple.FR' });
    const response = await register(fields, {
      identityDocument: { fileName: 'carte identité.png', content: sampleFiles.png(), contentType: 'image/png' },
      cv: { fileName: 'cv.pdf', content: sampleFiles.pdf(), contentType: 'application/pdf' },
    });
    expect(response.statusCode).toBe(201);
    const body = registrationResponseSchema.parse(response.json());
    expect(body.message).toContain('en cours de modération');

    const [user] = await ctx.db.select().from(users).where(eq(users.email, 'ada.lovelace@exemple.fr'));
    expect(user?.role).toBe('technician');
    expect(user?.passwordHash).not.toContain('Un-Mot-De-Passe-Solide');
    const [technician] = await ctx.db.select().from(technicians).where(eq(technicians.id, body.technicianId));
    expect(technician).toMatchObject({
      userId: user!.id,
      status: 'pending',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada.lovelace@exemple.fr',
      siret: '73282932000074',
      iban: 'FR7630006000011234567890189',
      postalCode: '75002',
      country: 'France',
      departments: ['75', '92'],
      formationCompleted: false,
    });
    const files = await ctx.db.select().from(storedFiles).where(eq(storedFiles.technicianId, body.technicianId));
    expect(files.map((f) => f.kind).sort()).toEqual(['cv', 'identity']);
    expect(files.find((f) => f.kind === 'identity')?.id).toBe(technician?.identityDocumentFileId);
    expect(files.find((f) => f.kind === 'cv')?.mimeType).toBe('application/pdf');
    expect(files.find((f) => f.kind === 'identity')?.originalName).toBe('carte identité.png');

    const [mail] = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'ada.lovelace@exemple.fr'));
    expect(mail?.kind).toBe('registration-received');
    expect(mail?.status).toBe('pending');
    expect(mail?.subject).toContain('inscription reçue');
    expect(mail?.text).toContain('http://localhost:80/technician/login');

    // The pending technician can sign in and download its own CV.
    const cookie = await login(ctx.app, 'ada.lovelace@exemple.fr', 'Un-Mot-De-Passe-Solide');
    const me = sessionResponseSchema.parse((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).json());
    expect(me.technician?.status).toBe('pending');
    expect(me.technician?.ibanLast4).toBe('0189');
    const download = await as(ctx.app, cookie)({ method: 'GET', url: me.technician!.cvUrl! });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
  });

  it('accepts the minimal form (required fields, one department, no file) with France as default country', async () => {
    const response = await register({
      firstName: 'Léa',
      lastName: 'Petit',
      email: 'lea.petit@exemple.fr',
      password: 'Encore-Un-Bon-Mot',
      departments: '["2A"]',
      termsAccepted: 'true',
    });
    expect(response.statusCode).toBe(201);
    const [technician] = await ctx.db.select().from(technicians).where(eq(technicians.email, 'lea.petit@exemple.fr'));
    expect(technician).toMatchObject({ country: 'France', departments: ['2A'], phone: null, iban: null, cvFileId: null, identityDocumentFileId: null });
  });

  const invalidCases: [string, Record<string, string>, string, string][] = [
    ['a missing first name', { firstName: '' }, 'firstName', 'Veuillez remplir tous les champs obligatoires'],
    ['a missing last name', { lastName: '   ' }, 'lastName', 'Veuillez remplir tous les champs obligatoires'],
    ['a missing e-mail', { email: '' }, 'email', 'Veuillez remplir tous les champs obligatoires'],
    ['a missing password', { password: '' }, 'password', 'Veuillez remplir tous les champs obligatoires'],
    ['an e-mail without @', { email: 'ada.exemple.fr' }, 'email', 'Adresse email invalide'],
    ['a 5-character password', { password: 'abc12' }, 'password', 'Le mot de passe doit contenir au moins 6 caractères'],
    ['a common password', { password: 'azerty123' }, 'password', 'Ce mot de passe est trop courant'],
    ['no department', { departments: '[]' }, 'departments', 'Vous devez sélectionner entre 1 et 3 départements'],
    ['four departments', { departments: '["75","92","93","94"]' }, 'departments', 'Vous devez sélectionner entre 1 et 3 départements'],
    ['departments that are not JSON', { departments: '75,92' }, 'departments', 'Vous devez sélectionner entre 1 et 3 départements'],
    ['an unknown department', { departments: '["99"]' }, 'departments', 'Département inconnu'],
    ['terms not accepted', { termsAccepted: 'false' }, 'termsAccepted', 'Vous devez lire les conditions générales et accepter la formation'],
    ['an IBAN with a wrong key', { iban: 'FR7630006000011234567890188' }, 'iban', 'IBAN invalide : vérifiez sa saisie (clé de contrôle incorrecte)'],
    ['a 13-digit SIRET', { siret: '7328293200007' }, 'siret', 'Le SIRET doit contenir 14 chiffres'],
    ['a SIRET with a wrong key', { siret: '73282932000075' }, 'siret', 'SIRET invalide : vérifiez sa saisie (clé de contrôle incorrecte)'],
    ['an unknown country', { country: 'Allemagne' }, 'country', 'Pays invalide'],
  ];
  for (const [label, overrides, field, message] of invalidCases) {
    it(`refuses ${label} with 400 and the French message, writing nothing`, async () => {
      const before = await snapshot();
      const response = await register(validFields(overrides), { cv: { fileName: 'cv.pdf', content: sampleFiles.pdf() } });
      expect(response.statusCode).toBe(400);
      const body = errorResponseSchema.parse(response.json());
      expect(body.message).toBe(message);
      expect(body.fields?.[field]).toBe(message);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('refuses an e-mail that already has an account (any case) with 409, writing nothing', async () => {
    const { technician } = await createTechnician(ctx.db);
    const before = await snapshot();
    const response = await register(validFields({ email: technician.email.toUpperCase() }), { cv: { fileName: 'cv.pdf', content: sampleFiles.pdf() } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: 'Un compte existe déjà avec cette adresse email', code: 'ALREADY_EXISTS' });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a .exe renamed .pdf (type decided from the bytes), writing nothing', async () => {
    const before = await snapshot();
    const response = await register(validFields(), { cv: { fileName: 'cv.pdf', content: sampleFiles.exe(), contentType: 'application/pdf' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'INVALID_FILE', message: 'Format de fichier non accepté : le CV doit être un PDF ou un DOCX' });
    expect(await snapshot()).toEqual(before);
  });

  it('takes a DOCX CV and a JPG or PDF identity document, but refuses a DOC CV (popup: PDF or DOCX) and a DOCX identity document', async () => {
    expect((await register(validFields(), { cv: { fileName: 'cv.docx', content: sampleFiles.docx() }, identityDocument: { fileName: 'id.jpg', content: sampleFiles.jpeg() } })).statusCode).toBe(201);
    expect((await register(validFields(), { identityDocument: { fileName: 'id.pdf', content: sampleFiles.pdf() } })).statusCode).toBe(201);
    const before = await snapshot();
    const doc = await register(validFields(), { cv: { fileName: 'cv.doc', content: sampleFiles.doc() } });
    expect(doc.statusCode).toBe(400);
    expect(doc.json().fields).toEqual({ cv: 'Format de fichier non accepté : le CV doit être un PDF ou un DOCX' });
    const identity = await register(validFields(), { identityDocument: { fileName: 'id.docx', content: sampleFiles.docx() } });
    expect(identity.statusCode).toBe(400);
    expect(identity.json().message).toBe("Format de fichier non accepté : la pièce d'identité doit être un PNG, un JPG ou un PDF");
    expect(await snapshot()).toEqual(before);
  });

  it('removes the first stored file when the second one is refused inside the transaction (no orphan)', async () => {
    const before = await snapshot();
    const response = await register(validFields(), {
      identityDocument: { fileName: 'id.png', content: sampleFiles.png() },
      cv: { fileName: 'cv.pdf', content: sampleFiles.pdfWithScript() },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('cv');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a 20 MB file with 413, writing nothing', async () => {
    const before = await snapshot();
    const response = await register(validFields(), { cv: { fileName: 'cv.pdf', content: sampleFiles.large(20 * 1024 * 1024) } });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('Le fichier dépasse la taille maximale de 10 Mo');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a JSON body and an unexpected file field with 400', async () => {
    const json = await ctx.app.inject({ method: 'POST', url: '/api/technicians/register', payload: validFields() });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe('Formulaire multipart attendu');
    const before = await snapshot();
    const extra = await register(validFields(), { photo: { fileName: 'x.png', content: sampleFiles.png() } });
    expect(extra.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('is rate limited per IP and per e-mail (429, French message)', async () => {
    await ctx.db.insert(rateLimits).values({ key: 'register-ip:127.0.0.1', windowStart: new Date(), count: REGISTER_LIMITS.perIp });
    const byIp = await register(validFields());
    expect(byIp.statusCode).toBe(429);
    expect(byIp.json().message).toBe('Trop de tentatives, réessayez dans quelques minutes');
    // Another address is not affected by the IP counter.
    // A forged X-Forwarded-For does not help (TRUST_PROXY is off)…
    const forged = await register(validFields(), {}, { 'x-forwarded-for': '203.0.113.9' });
    expect(forged.statusCode).toBe(429);
    // …while a really different client address has its own counter.
    const other = await register(validFields(), {}, {}, '203.0.113.9');
    expect(other.statusCode).toBe(201);

    await ctx.db.delete(rateLimits);
    const email = uniqueEmail();
    await ctx.db.insert(rateLimits).values({ key: `register-email:${email}`, windowStart: new Date(), count: REGISTER_LIMITS.perEmail });
    const before = await snapshot();
    const byEmail = await register(validFields({ email }));
    expect(byEmail.statusCode).toBe(429);
    expect(await snapshot()).toEqual(before);
    // The window passes: allowed again.
    await ctx.db.update(rateLimits).set({ windowStart: sql`now() - interval '2 hours'` });
    expect((await register(validFields({ email }))).statusCode).toBe(201);
  });
});
