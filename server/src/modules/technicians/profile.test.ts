import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { technicianSchema } from '@maillon/common/schemas/technicians';
import { auditLog, storedFiles, technicians } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { listFiles, multipartBody, sampleFiles } from '../../../test/multipart';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;

beforeAll(async () => {
  ctx = await createTestContext();
  techA = await createTechnician(ctx.db, { iban: 'FR7630006000011234567890189', phone: '0102030405' });
  techB = await createTechnician(ctx.db);
  const admin = await createAdmin(ctx.db);
  [cookieA, cookieB, cookieAdmin] = await Promise.all([
    login(ctx.app, techA.technician.email),
    login(ctx.app, techB.technician.email),
    login(ctx.app, admin.email),
  ]);
});
afterAll(async () => {
  await ctx.close();
});

const urlA = () => `/api/technicians/${techA.technician.id}`;

async function rowA() {
  const [row] = await ctx.db.select().from(technicians).where(eq(technicians.id, techA.technician.id));
  return row!;
}

describe('GET /api/technicians/:id', () => {
  it('gives the technician its own record without password hash or full IBAN', async () => {
    const response = await as(ctx.app, cookieA)({ method: 'GET', url: urlA() });
    expect(response.statusCode).toBe(200);
    const body = technicianSchema.parse(response.json());
    expect(body.id).toBe(techA.technician.id);
    expect(body.ibanLast4).toBe('0189');
    expect(response.body).not.toContain('FR7630006000011234567890189');
    expect(response.body).not.toContain('passwordHash');
  });

  it('answers 404 to another technician, 401 anonymous, 200 to the admin, 400 to a malformed id', async () => {
    expect((await as(ctx.app, cookieB)({ method: 'GET', url: urlA() })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'GET', url: urlA() })).statusCode).toBe(401);
    expect((await as(ctx.app, cookieAdmin)({ method: 'GET', url: urlA() })).statusCode).toBe(200);
    expect((await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/technicians/${crypto.randomUUID()}` })).statusCode).toBe(404);
    const malformed = await as(ctx.app, cookieA)({ method: 'GET', url: '/api/technicians/abc' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('Identifiant invalide');
  });
});

interface SectionCase {
  name: string;
  path: string;
  valid: Record<string, unknown>;
  expected: Partial<typeof technicians.$inferSelect>;
  invalid: [Record<string, unknown>, string][];
}

const sections: SectionCase[] = [
  {
    name: 'address',
    path: '',
    valid: { address: ' 3 place Bellecour ', city: 'Lyon', postalCode: '69002' },
    expected: { address: '3 place Bellecour', city: 'Lyon', postalCode: '69002' },
    invalid: [[{ address: 'x', city: 'Lyon', postalCode: 'ABCDE' }, 'Code postal invalide']],
  },
  {
    name: 'banking',
    path: '/banking',
    valid: { iban: 'fr14 2004 1010 0505 0001 3m02 606' },
    expected: { iban: 'FR1420041010050500013M02606' },
    invalid: [
      [{ iban: '' }, 'Veuillez entrer un IBAN'],
      [{ iban: 'FR1420041010050500013M02605' }, 'IBAN invalide : vérifiez sa saisie (clé de contrôle incorrecte)'],
    ],
  },
  {
    name: 'professional',
    path: '/professional',
    valid: { companyName: 'Secours Express', siret: '732 829 320 00074' },
    expected: { companyName: 'Secours Express', siret: '73282932000074' },
    invalid: [
      [{ companyName: 'X', siret: '12345' }, 'Le SIRET doit contenir 14 chiffres'],
      [{ companyName: 'X', siret: '73282932000075' }, 'SIRET invalide : vérifiez sa saisie (clé de contrôle incorrecte)'],
    ],
  },
  {
    name: 'personal',
    path: '/personal',
    valid: { firstName: 'Jeanne-Marie', lastName: 'Durand', phone: '+33 6 11 22 33 44' },
    expected: { firstName: 'Jeanne-Marie', lastName: 'Durand', phone: '+33 6 11 22 33 44' },
    invalid: [
      [{ firstName: '', lastName: 'Durand' }, 'Veuillez remplir tous les champs obligatoires'],
      [{ firstName: 'J', lastName: 'D', phone: 'appelez-moi' }, 'Numéro de téléphone invalide'],
    ],
  },
  {
    name: 'departments',
    path: '/departments',
    valid: { departments: ['69', '2B', '974'] },
    expected: { departments: ['69', '2B', '974'] },
    invalid: [
      [{ departments: [] }, 'Vous devez sélectionner entre 1 et 3 départements'],
      [{ departments: ['69', '01', '38', '42'] }, 'Vous devez sélectionner entre 1 et 3 départements'],
      [{ departments: ['00'] }, 'Département inconnu'],
      [{}, 'Vous devez sélectionner entre 1 et 3 départements'],
    ],
  },
  {
    name: 'relay-point',
    path: '/relay-point',
    valid: { preferredRelayPoint: 'Mondial Relay — Tabac de la Gare' },
    expected: { preferredRelayPoint: 'Mondial Relay — Tabac de la Gare' },
    invalid: [[{ preferredRelayPoint: 'x'.repeat(301) }, 'Le point relais doit contenir au plus 300 caractères']],
  },
  {
    name: 'comments',
    path: '/comments',
    valid: { comments: 'Disponible en semaine après 17 h.' },
    expected: { comments: 'Disponible en semaine après 17 h.' },
    invalid: [[{ comments: 'x'.repeat(2001) }, 'Le commentaire doit contenir au plus 2000 caractères']],
  },
];

for (const section of sections) {
  describe(`PATCH /api/technicians/:id${section.path} (${section.name})`, () => {
    it('saves the card for the technician itself and answers the safe record', async () => {
      const response = await as(ctx.app, cookieA)({ method: 'PATCH', url: `${urlA()}${section.path}`, payload: section.valid });
      expect(response.statusCode).toBe(200);
      technicianSchema.parse(response.json());
      expect(response.body).not.toContain('FR1420041010050500013M02606');
      expect(await rowA()).toMatchObject(section.expected);
    });

    it('refuses invalid input with 400 and the French message, changing nothing', async () => {
      for (const [payload, message] of section.invalid) {
        const before = await rowA();
        const response = await as(ctx.app, cookieA)({ method: 'PATCH', url: `${urlA()}${section.path}`, payload });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe(message);
        expect(await rowA()).toEqual(before);
      }
    });

    it('answers 404 to another technician and 401 anonymous, changing nothing', async () => {
      const before = await rowA();
      const other = await as(ctx.app, cookieB)({ method: 'PATCH', url: `${urlA()}${section.path}`, payload: section.valid });
      expect(other.statusCode).toBe(404);
      const anonymous = await as(ctx.app, null)({ method: 'PATCH', url: `${urlA()}${section.path}`, payload: section.valid });
      expect(anonymous.statusCode).toBe(401);
      expect(await rowA()).toEqual(before);
    });
  });
}

describe('profile edits by the admin', () => {
  it('are allowed and written to the audit log with the IBAN masked', async () => {
    const response = await as(ctx.app, cookieAdmin)({
      method: 'PATCH',
      url: `/api/technicians/${techB.technician.id}/banking`,
      payload: { iban: 'BE68539007547034' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().ibanLast4).toBe('7034');
    const entries = await ctx.db.select().from(auditLog).where(eq(auditLog.entityId, techB.technician.id));
    expect(entries).toHaveLength(1);
    expect(entries[0]?.action).toBe('technician.update.banking');
    expect(entries[0]?.after).not.toContain('BE68539007547034');
    expect(entries[0]?.after).toContain('7034');
  });

  it('are not audited when the technician edits itself', async () => {
    await as(ctx.app, cookieA)({ method: 'PATCH', url: `${urlA()}/comments`, payload: { comments: 'Merci' } });
    const entries = await ctx.db.select().from(auditLog).where(eq(auditLog.entityId, techA.technician.id));
    expect(entries).toHaveLength(0);
  });
});

function upload(cookie: string | null, technicianId: string, kind: 'identity' | 'cv', file: { fileName: string; content: Buffer }, field = 'file') {
  const body = multipartBody({}, { [field]: file });
  return as(ctx.app, cookie)({
    method: 'POST',
    url: `/api/technicians/${technicianId}/upload-${kind}`,
    payload: body.payload,
    headers: body.headers,
  });
}

async function snapshot() {
  return { rows: await countRows(ctx.db, 'stored_files'), disk: listFiles(ctx.app.config.uploadsDir).length, technician: await rowA() };
}

describe('POST /api/technicians/:id/upload-identity and /upload-cv', () => {
  it('stores the CV, lets its owner and the admin download it, hides it from another technician', async () => {
    const response = await upload(cookieA, techA.technician.id, 'cv', { fileName: 'mon cv.pdf', content: sampleFiles.pdf() });
    expect(response.statusCode).toBe(200);
    const body = technicianSchema.parse(response.json());
    expect(body.cvUrl).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    const mine = await as(ctx.app, cookieA)({ method: 'GET', url: body.cvUrl! });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('application/pdf');
    expect(mine.headers['x-content-type-options']).toBe('nosniff');
    expect(String(mine.headers['content-disposition'])).toContain('mon cv.pdf'.replace(' ', '%20'));
    expect((await as(ctx.app, cookieAdmin)({ method: 'GET', url: body.cvUrl! })).statusCode).toBe(200);
    expect((await as(ctx.app, cookieB)({ method: 'GET', url: body.cvUrl! })).statusCode).toBe(404);
    expect((await as(ctx.app, null)({ method: 'GET', url: body.cvUrl! })).statusCode).toBe(401);
  });

  it('replaces the previous file: the old row and bytes are gone', async () => {
    const first = technicianSchema.parse((await upload(cookieA, techA.technician.id, 'identity', { fileName: 'id.png', content: sampleFiles.png() })).json());
    const firstId = first.identityDocumentUrl!.split('/').pop()!;
    const [firstRow] = await ctx.db.select().from(storedFiles).where(eq(storedFiles.id, firstId));
    const firstPath = path.join(ctx.app.config.uploadsDir, firstRow!.storageKey);
    expect(fs.existsSync(firstPath)).toBe(true);
    const before = await snapshot();

    const second = await upload(cookieA, techA.technician.id, 'identity', { fileName: 'id.jpg', content: sampleFiles.jpeg() });
    expect(second.statusCode).toBe(200);
    const secondBody = technicianSchema.parse(second.json());
    expect(secondBody.identityDocumentUrl).not.toBe(first.identityDocumentUrl);
    expect(await ctx.db.select().from(storedFiles).where(eq(storedFiles.id, firstId))).toHaveLength(0);
    expect(fs.existsSync(firstPath)).toBe(false);
    const after = await snapshot();
    expect(after.rows).toBe(before.rows);
    expect(after.disk).toBe(before.disk);
    expect((await as(ctx.app, cookieA)({ method: 'GET', url: secondBody.identityDocumentUrl! })).headers['content-type']).toBe('image/jpeg');
  });

  it('takes a DOC or DOCX CV in the profile', async () => {
    expect((await upload(cookieA, techA.technician.id, 'cv', { fileName: 'cv.doc', content: sampleFiles.doc() })).statusCode).toBe(200);
    expect((await upload(cookieA, techA.technician.id, 'cv', { fileName: 'cv.docx', content: sampleFiles.docx() })).statusCode).toBe(200);
  });

  it('refuses a .exe renamed .pdf, a DOCX identity document and a PDF with scripts, writing nothing', async () => {
    const cases: ['identity' | 'cv', { fileName: string; content: Buffer }, string][] = [
      ['cv', { fileName: 'cv.pdf', content: sampleFiles.exe() }, 'Format de fichier non accepté : le CV doit être un PDF, un DOC ou un DOCX'],
      ['identity', { fileName: 'id.pdf', content: sampleFiles.exe() }, "Format de fichier non accepté : la pièce d'identité doit être un PNG, un JPG ou un PDF"],
      ['identity', { fileName: 'id.docx', content: sampleFiles.docx() }, "Format de fichier non accepté : la pièce d'identité doit être un PNG, un JPG ou un PDF"],
      ['cv', { fileName: 'cv.pdf', content: sampleFiles.pdfWithScript() }, 'Ce PDF contient du contenu actif (scripts) et ne peut pas être accepté'],
    ];
    for (const [kind, file, message] of cases) {
      const before = await snapshot();
      const response = await upload(cookieA, techA.technician.id, kind, file);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
      expect(await snapshot()).toEqual(before);
    }
  });

  it('refuses a 20 MB file with 413, writing nothing', async () => {
    const before = await snapshot();
    const response = await upload(cookieA, techA.technician.id, 'cv', { fileName: 'cv.pdf', content: sampleFiles.large(20 * 1024 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('Le fichier dépasse la taille maximale de 10 Mo');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a missing file, another field name or a JSON body with 400', async () => {
    const before = await snapshot();
    const empty = multipartBody({ note: 'rien' });
    const none = await as(ctx.app, cookieA)({ method: 'POST', url: `${urlA()}/upload-cv`, payload: empty.payload, headers: empty.headers });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Aucun fichier reçu');
    expect((await upload(cookieA, techA.technician.id, 'cv', { fileName: 'cv.pdf', content: sampleFiles.pdf() }, 'cv')).statusCode).toBe(400);
    const json = await as(ctx.app, cookieA)({ method: 'POST', url: `${urlA()}/upload-cv`, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 to another technician and 401 anonymous, writing nothing', async () => {
    const before = await snapshot();
    expect((await upload(cookieB, techA.technician.id, 'cv', { fileName: 'cv.pdf', content: sampleFiles.pdf() })).statusCode).toBe(404);
    expect((await upload(null, techA.technician.id, 'identity', { fileName: 'id.png', content: sampleFiles.png() })).statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a cookie-authenticated upload from another origin (CSRF)', async () => {
    const body = multipartBody({}, { file: { fileName: 'cv.pdf', content: sampleFiles.pdf() } });
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${urlA()}/upload-cv`,
      payload: body.payload,
      headers: { ...body.headers, cookie: cookieA, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
  });
});
