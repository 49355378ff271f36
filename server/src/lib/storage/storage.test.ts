import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { storedFiles, technicians } from '../../db/schema';
import { as, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { multipartBody } from '../../../test/multipart';
import { startTestS3Server, type TestS3Server } from '../../../test/s3';
import { AppError } from '../app-error';
import { copyObjects, openStorage } from './index';
import { LocalStorage } from './local';
import type { ObjectStorage } from './object-storage';
import { parseStorageUrl, S3Storage } from './s3';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startTestS3Server();
});
afterAll(async () => {
  await s3.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const drain = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

describe.each([
  ['local', () => new LocalStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-store-')))],
  ['s3', () => new S3Storage(parseStorageUrl(s3.url))],
] as const)('%s driver', (_name, open) => {
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = open();
  });
  afterAll(async () => {
    await storage.close();
  });

  it('writes, reads, streams, lists and removes an object', async () => {
    const key = `cv/${crypto.randomUUID()}.pdf`;
    await storage.put(key, PDF, 'application/pdf');
    expect(await storage.read(key)).toEqual(PDF);
    const opened = await storage.open(key);
    expect(opened?.size).toBe(PDF.length);
    expect(await drain(opened!.stream)).toEqual(PDF);
    const listed: string[] = [];
    for await (const object of storage.list('cv/')) listed.push(object.key);
    expect(listed).toContain(key);
    await storage.remove(key);
    expect(await storage.read(key)).toBeNull();
    expect(await storage.open(key)).toBeNull();
    // Removing twice is not an error.
    await storage.remove(key);
  });

  it('answers null for a missing object and refuses keys it did not make', async () => {
    expect(await storage.read(`cv/${crypto.randomUUID()}.pdf`)).toBeNull();
    for (const key of ['../etc/passwd', '/abs/x.pdf', 'cv/../../x.pdf', 'cv/a b.pdf', 'cv/x']) {
      await expect(storage.put(key, PDF, 'application/pdf')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('is reachable (readiness check)', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });
});

describe('S3 driver during a bucket outage', () => {
  it('answers STORAGE_UNAVAILABLE (503, French message) on every operation, and works again afterwards', async () => {
    const storage = new S3Storage(parseStorageUrl(s3.url));
    const key = `identity/${crypto.randomUUID()}.pdf`;
    await storage.put(key, PDF, 'application/pdf');
    await s3.stop();
    try {
      for (const operation of [
        () => storage.put(`cv/${crypto.randomUUID()}.pdf`, PDF, 'application/pdf'),
        () => storage.read(key),
        () => storage.check(),
      ]) {
        const error = await operation().then(
          () => null,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: 'STORAGE_UNAVAILABLE', statusCode: 503 });
        expect((error as AppError).message).toBe('Le stockage des fichiers est indisponible, réessayez dans quelques instants');
      }
    } finally {
      await s3.start();
    }
    expect(await storage.read(key)).toEqual(PDF);
    await storage.close();
  });
});

describe('STORAGE_URL', () => {
  it('reads endpoint, bucket, prefix, region and encoded credentials', () => {
    expect(parseStorageUrl('s3+https://AK%2B1:se%2Fcret@s3.fr-par.scw.cloud/maillon/prod?region=fr-par')).toEqual({
      endpoint: 'https://s3.fr-par.scw.cloud',
      region: 'fr-par',
      bucket: 'maillon',
      prefix: 'prod/',
      accessKeyId: 'AK+1',
      secretAccessKey: 'se/cret',
    });
    expect(() => parseStorageUrl('https://a:b@host/bucket')).toThrow(/schéma/);
    expect(() => parseStorageUrl('s3+https://a:b@host/')).toThrow(/bucket/);
    expect(() => parseStorageUrl('s3+https://host/bucket')).toThrow(/clé/);
  });

  it('chooses the driver: the local directory by default, S3 when set; the description never shows the secret', () => {
    const local = openStorage({ uploadsDir: '/tmp/x' });
    expect(local.kind).toBe('local');
    const remote = openStorage({ uploadsDir: '/tmp/x', STORAGE_URL: 's3+https://KEY:SECRET@s3.example.test/bucket' });
    expect(remote.kind).toBe('s3');
    expect(remote.description).toBe('S3 https://s3.example.test/bucket');
    expect(remote.description).not.toContain('SECRET');
  });
});

describe('copyObjects (npm run storage:migrate)', () => {
  it('copies a local store into a bucket once; a second run copies nothing', async () => {
    const local = new LocalStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-store-')));
    const bucket = new S3Storage({ ...parseStorageUrl(s3.url), prefix: `copy-${crypto.randomUUID()}/` });
    const keys = [`cv/${crypto.randomUUID()}.pdf`, `identity/${crypto.randomUUID()}.pdf`];
    for (const key of keys) await local.put(key, PDF, 'application/pdf');
    expect(await copyObjects(local, bucket)).toEqual({ copied: 2, skipped: 0 });
    for (const key of keys) expect(await bucket.read(key)).toEqual(PDF);
    expect(await copyObjects(local, bucket)).toEqual({ copied: 0, skipped: 2 });
    await bucket.close();
  });
});

describe('uploads through the API with S3 storage', () => {
  let ctx: TestContext;
  let technicianId: string;
  let cookie: string;
  beforeAll(async () => {
    ctx = await createTestContext({ STORAGE_URL: s3.url });
    const { technician } = await createTechnician(ctx.db);
    technicianId = technician.id;
    cookie = await login(ctx.app, technician.email);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const uploadCv = () => {
    const body = multipartBody({}, { file: { fileName: 'mon-cv.pdf', contentType: 'application/pdf', content: PDF } });
    return as(
      ctx.app,
      cookie,
    )({ method: 'POST', url: `/api/technicians/${technicianId}/upload-cv`, headers: body.headers, payload: body.payload });
  };

  it('stores the CV in the bucket (not on disk) and downloads it through the authenticated route', async () => {
    expect(ctx.app.storage.kind).toBe('s3');
    const response = await uploadCv();
    expect(response.statusCode).toBe(200);
    const [row] = await ctx.db
      .select({ cvFileId: technicians.cvFileId })
      .from(technicians)
      .where(eq(technicians.id, technicianId));
    const [file] = await ctx.db.select().from(storedFiles).where(eq(storedFiles.id, row!.cvFileId!));
    expect(fs.existsSync(path.join(ctx.app.config.uploadsDir, file!.storageKey))).toBe(false);
    expect(await ctx.app.storage.read(file!.storageKey)).toEqual(PDF);
    const download = await as(ctx.app, cookie)({ method: 'GET', url: `/api/files/${file!.id}` });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(PDF);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-security-policy']).toBe('sandbox');
  });

  it('/readyz names the file store while the bucket is away, and is ready again once it is back', async () => {
    await s3.stop();
    try {
      const response = await ctx.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toBe('Instance non prête : stockage des fichiers (le stockage des fichiers ne répond pas)');
    } finally {
      await s3.start();
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('a bucket outage answers 503 with a French message and writes nothing; the upload works again afterwards', async () => {
    const before = await ctx.db
      .select({ cvFileId: technicians.cvFileId })
      .from(technicians)
      .where(eq(technicians.id, technicianId));
    const filesBefore = await ctx.db.select({ id: storedFiles.id }).from(storedFiles);
    await s3.stop();
    try {
      const response = await uploadCv();
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        code: 'STORAGE_UNAVAILABLE',
        message: 'Le stockage des fichiers est indisponible, réessayez dans quelques instants',
      });
    } finally {
      await s3.start();
    }
    expect(
      await ctx.db.select({ cvFileId: technicians.cvFileId }).from(technicians).where(eq(technicians.id, technicianId)),
    ).toEqual(before);
    expect(await ctx.db.select({ id: storedFiles.id }).from(storedFiles)).toEqual(filesBefore);
    expect((await uploadCv()).statusCode).toBe(200);
  });
});
