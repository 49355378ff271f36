import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import { invoices, storedFiles } from '../../src/db/schema';
import { as, createTestContext, login, type TestContext } from '../helpers';
import { jpegBytes, listFiles, multipartBody, pngBytes, sampleFiles } from '../multipart';
import { buildWorld, type World } from './world';

/**
 * A corpus of hostile and valid files against every upload route: 0 wrong files accepted, 0 files outside the
 * store, every download served as attachment with nosniff and a sandbox CSP.
 */
let ctx: TestContext;
let world: World;
let cookieA: string;

beforeAll(async () => {
  ctx = await createTestContext();
  world = await buildWorld(ctx.db, ctx.app.config.uploadsDir);
  cookieA = await login(ctx.app, world.a.email);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

type Kind = 'pdf' | 'png' | 'jpeg' | 'doc' | 'docx' | 'bad';
interface Sample {
  label: string;
  name: string;
  bytes: Buffer;
  kind: Kind;
  contentType?: string;
}

const pdf = sampleFiles.pdf();
const corpus: Sample[] = [
  { label: 'PDF valide', name: 'facture.pdf', bytes: pdf, kind: 'pdf' },
  { label: 'PNG valide', name: 'carte.png', bytes: pngBytes(40, 30), kind: 'png' },
  { label: 'JPEG valide', name: 'carte.jpg', bytes: jpegBytes(800, 600), kind: 'jpeg' },
  { label: 'DOC valide', name: 'cv.doc', bytes: sampleFiles.doc(), kind: 'doc' },
  { label: 'DOCX valide', name: 'cv.docx', bytes: sampleFiles.docx(), kind: 'docx' },
  { label: 'PDF nommé ../../x', name: '../../x.pdf', bytes: pdf, kind: 'pdf' },
  { label: 'PDF nommé ..%2f', name: '..%2f..%2fetc%2fpasswd.pdf', bytes: pdf, kind: 'pdf' },
  { label: 'PDF nommé avec NUL', name: 'a\u0000b.pdf', bytes: pdf, kind: 'pdf' },
  { label: 'PDF nommé avec U+202E', name: 'facture\u202Efdp.exe', bytes: pdf, kind: 'pdf' },
  { label: 'PDF nommé 300 caractères', name: `${'é'.repeat(300)}.pdf`, bytes: pdf, kind: 'pdf' },
  { label: 'PDF avec un Content-Type menteur', name: 'doc.pdf', bytes: pdf, kind: 'pdf', contentType: 'image/svg+xml' },
  { label: 'octets PNG nommés .pdf', name: 'faux.pdf', bytes: pngBytes(), kind: 'png', contentType: 'application/pdf' },
  { label: 'PDF avec /JavaScript', name: 'js.pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj << /S /JavaScript /JS (app.alert(1)) >> endobj\n%%EOF\n'), kind: 'bad' },
  { label: 'PDF avec /OpenAction', name: 'oa.pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj << /OpenAction 2 0 R >> endobj\n%%EOF\n'), kind: 'bad' },
  { label: 'PDF avec /Launch', name: 'launch.pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj << /S /Launch /F (cmd.exe) >> endobj\n%%EOF\n'), kind: 'bad' },
  { label: 'PDF avec fichier embarqué', name: 'emb.pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj << /Type /EmbeddedFile >> endobj\n%%EOF\n'), kind: 'bad' },
  { label: 'PDF tronqué', name: 'tronque.pdf', bytes: pdf.subarray(0, 30), kind: 'bad' },
  { label: 'HTML après un en-tête PNG', name: 'page.png', bytes: Buffer.concat([pngBytes().subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')]), kind: 'bad' },
  { label: 'SVG avec script', name: 'image.svg', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), kind: 'bad', contentType: 'image/svg+xml' },
  { label: 'HTML', name: 'cv.pdf', bytes: Buffer.from('<!doctype html><h1>hello</h1>'), kind: 'bad', contentType: 'application/pdf' },
  { label: 'zéro octet', name: 'vide.pdf', bytes: Buffer.alloc(0), kind: 'bad' },
  { label: 'PNG de 14000×14000', name: 'bombe.png', bytes: pngBytes(14_000, 14_000), kind: 'bad' },
  { label: 'JPEG de 20000×20000', name: 'bombe.jpg', bytes: jpegBytes(20_000, 20_000), kind: 'bad' },
  { label: 'JPEG sans fin', name: 'coupe.jpg', bytes: jpegBytes().subarray(0, 30), kind: 'bad' },
  { label: 'exécutable nommé .pdf', name: 'virus.pdf', bytes: sampleFiles.exe(), kind: 'bad', contentType: 'application/pdf' },
  { label: 'ZIP qui n’est pas un DOCX', name: 'cv.docx', bytes: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), crypto.randomBytes(200)]), kind: 'bad' },
  { label: 'GIF nommé .png', name: 'anim.png', bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), kind: 'bad' },
  // Cases where file-type decides the magic number and our structure checks decide the rest (lib/file-type.ts).
  { label: 'APNG valide', name: 'anim.png', bytes: pngBytes(40, 30, { animated: true }), kind: 'png' },
  { label: 'XLSX nommé .docx', name: 'cv.docx', bytes: sampleFiles.xlsx(), kind: 'bad' },
  { label: 'DOCX à macros (DOCM)', name: 'cv.docx', bytes: sampleFiles.docm(), kind: 'bad' },
  { label: 'en-tête PNG collé sur un DOCX', name: 'carte.png', bytes: Buffer.concat([pngBytes().subarray(0, 8), sampleFiles.docx()]), kind: 'bad' },
  { label: 'GIF suivi d’un ZIP (GIFAR)', name: 'cv.docx', bytes: Buffer.concat([Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), sampleFiles.docx()]), kind: 'bad' },
  { label: 'JPEG tronqué (sans fin d’image)', name: 'coupe.jpg', bytes: jpegBytes(800, 600).subarray(0, -2), kind: 'bad' },
  { label: 'WEBP nommé .jpg', name: 'photo.jpg', bytes: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(24)]), kind: 'bad' },
  { label: 'PDF précédé de 100 octets', name: 'decale.pdf', bytes: Buffer.concat([Buffer.alloc(100, 0x20), pdf]), kind: 'bad' },
  { label: 'limite + 1 octet', name: 'gros.pdf', bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(UPLOAD_MAX_BYTES + 1 - 16), Buffer.from('\n%%EOF\n')]), kind: 'bad' },
];

interface UploadRoute {
  name: string;
  accepts: Kind[];
  send: (sample: Sample) => Promise<{ statusCode: number; body: string }>;
}

function storeIsClean(): string[] {
  const root = path.resolve(ctx.app.config.uploadsDir);
  return listFiles(root).filter((file) => {
    const relative = path.relative(root, file);
    return relative.startsWith('..') || !/^(identity|cv|invoice|visit-photo|signature|visit-report)\/[0-9a-f-]{36}\.(pdf|png|jpg|doc|docx)$/.test(relative.split(path.sep).join('/'));
  });
}

describe('upload corpus', () => {
  const routes: UploadRoute[] = [
    {
      name: 'POST /api/technicians/:id/upload-cv',
      accepts: ['pdf', 'doc', 'docx'],
      send: (s) => {
        const body = multipartBody({}, { file: { fileName: s.name, content: s.bytes, contentType: s.contentType ?? 'application/octet-stream' } });
        return as(ctx.app, cookieA)({ method: 'POST', url: `/api/technicians/${world.a.ids.technician}/upload-cv`, payload: body.payload, headers: body.headers });
      },
    },
    {
      name: 'POST /api/technicians/:id/upload-identity',
      accepts: ['pdf', 'png', 'jpeg'],
      send: (s) => {
        const body = multipartBody({}, { file: { fileName: s.name, content: s.bytes, contentType: s.contentType ?? 'application/octet-stream' } });
        return as(ctx.app, cookieA)({ method: 'POST', url: `/api/technicians/${world.a.ids.technician}/upload-identity`, payload: body.payload, headers: body.headers });
      },
    },
    {
      name: 'POST /api/technicians/register (cv)',
      accepts: ['pdf', 'docx'],
      send: (s) => {
        const body = multipartBody(
          {
            firstName: 'Corpus',
            lastName: 'Test',
            email: `corpus-${crypto.randomUUID()}@maillon.test`,
            password: 'Un-Mot-De-Passe-Solide',
            departments: JSON.stringify(['75']),
            country: 'France',
            termsAccepted: 'true',
            trainingAccepted: 'true',
          },
          { cv: { fileName: s.name, content: s.bytes, contentType: s.contentType ?? 'application/octet-stream' } },
        );
        return ctx.app.inject({ method: 'POST', url: '/api/technicians/register', payload: body.payload, headers: body.headers, remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
      },
    },
    {
      name: 'POST /api/invoice/:id/submit',
      accepts: ['pdf'],
      send: async (s) => {
        // A fresh "Facture à soumettre" each time, so an accepted file never blocks the next case.
        await ctx.db.update(invoices).set({ status: 'Facture à soumettre', validatedAmountCents: 12_345 }).where(eq(invoices.id, world.a.ids.invoice));
        await ctx.db.execute(`delete from transfers where invoice_id = '${world.a.ids.invoice}'` as never);
        const body = multipartBody(
          { reference: `FAC-${crypto.randomUUID().slice(0, 8)}`, amount_certified: '123.45' },
          { invoice_file: { fileName: s.name, content: s.bytes, contentType: s.contentType ?? 'application/pdf' } },
        );
        return as(ctx.app, cookieA)({ method: 'POST', url: `/api/invoice/${world.a.ids.invoice}/submit`, payload: body.payload, headers: body.headers });
      },
    },
    {
      // Visit photos are decoded and rewritten (issue 16): the corpus's "valid" images are headers without their
      // pixels, so every file here is refused; real photos are accepted in modules/visit-reports/visit-reports.test.ts.
      name: 'PUT /api/missions/:missionId/visit-report/photos/:photoId',
      accepts: [],
      send: (s) => {
        const body = multipartBody({ reportId: world.a.ids.report }, { file: { fileName: s.name, content: s.bytes, contentType: s.contentType ?? 'image/jpeg' } });
        return as(ctx.app, cookieA)({ method: 'PUT', url: `/api/missions/${world.a.ids.mission}/visit-report/photos/${crypto.randomUUID()}`, payload: body.payload, headers: body.headers });
      },
    },
  ];

  for (const route of routes) {
    it(`${route.name}: accepts only the right bytes (${corpus.length} files)`, async () => {
      const wrongAccepted: string[] = [];
      const rightRefused: string[] = [];
      for (const sample of corpus) {
        const before = (await ctx.db.select({ id: storedFiles.id }).from(storedFiles)).length;
        const response = await route.send(sample);
        const after = (await ctx.db.select({ id: storedFiles.id }).from(storedFiles)).length;
        const accepted = response.statusCode >= 200 && response.statusCode < 300;
        expect(response.statusCode, `${sample.label}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
        if (accepted && !route.accepts.includes(sample.kind)) wrongAccepted.push(sample.label);
        if (!accepted && route.accepts.includes(sample.kind)) rightRefused.push(`${sample.label} → ${response.statusCode} ${response.body.slice(0, 120)}`);
        if (!accepted) {
          expect(after, `${sample.label} refusé mais une ligne a été écrite`).toBe(before);
          const body = JSON.parse(response.body) as { message: string; code: string };
          expect(typeof body.message).toBe('string');
        }
      }
      expect(wrongAccepted).toEqual([]);
      expect(rightRefused).toEqual([]);
      expect(storeIsClean()).toEqual([]);
    }, 180_000);
  }

  it('refuses 1 001 multipart parts without a 5xx', async () => {
    const fields = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}`, 'x']));
    const body = multipartBody(fields, { file: { fileName: 'cv.pdf', content: pdf } });
    const response = await as(ctx.app, cookieA)({ method: 'POST', url: `/api/technicians/${world.a.ids.technician}/upload-cv`, payload: body.payload, headers: body.headers });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });

  it('serves every stored file as an attachment with nosniff and a sandbox CSP, names cleaned', async () => {
    const files = await ctx.db.select().from(storedFiles);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      // eslint-disable-next-line no-control-regex -- the point is to prove control characters are gone
      expect(file.originalName).not.toMatch(/[/\\\u0000\u202e]/);
      expect(file.originalName.length).toBeLessThanOrEqual(130);
      if (file.technicianId !== world.a.ids.technician) continue;
      const response = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/files/${file.id}` });
      expect(response.statusCode).toBe(200);
      expect(String(response.headers['content-disposition'])).toMatch(/^attachment; filename="[^"/\\]*"; filename\*=UTF-8''/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe('sandbox');
    }
  });
});
