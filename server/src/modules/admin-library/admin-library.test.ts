import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { learningResourceSchema } from '@maillon/common/schemas/learning-resources';
import { resourceReaderSchema } from '@maillon/common/schemas/library';
import { learningResources, resourceViews, technicians } from '../../db/schema';
import { syncFormation } from '../lifecycle/lifecycle.service';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let adminCookie: string;
let readerCookie: string;
let reader: Awaited<ReturnType<typeof createTechnician>>['technician'];
let existingId: string;

const valid = {
  title: 'Nouvelle procédure',
  description: 'À lire avant toute visite.',
  type: 'video',
  url: 'https://maillon.fr/formation/nouveau',
  duration: 7,
};

async function formationOf(id: string) {
  const [row] = await ctx.db
    .select({ done: technicians.formationCompleted, label: technicians.formationStatus })
    .from(technicians)
    .where(eq(technicians.id, id));
  return row!;
}

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx.db);
  adminCookie = await login(ctx.app, admin.email);
  ({ technician: reader } = await createTechnician(ctx.db, { firstName: 'Sarah', lastName: 'Benali' }));
  readerCookie = await login(ctx.app, reader.email);
  const [existing] = await ctx.db
    .insert(learningResources)
    .values({ title: 'La chaîne de survie', description: 'd', url: 'https://a.test', type: 'video', duration: 8 })
    .returning();
  existingId = existing!.id;
  await ctx.db.insert(resourceViews).values({ resourceId: existingId, technicianId: reader.id });
  await syncFormation(ctx.db);
});
afterAll(async () => {
  await ctx.close();
});

describe('POST /api/learning-resources', () => {
  it('creates a resource and makes every trained technician incomplete again', async () => {
    expect(await formationOf(reader.id)).toEqual({ done: true, label: 'Formation complétée' });
    const response = await as(ctx.app, adminCookie)({ method: 'POST', url: '/api/learning-resources', payload: valid });
    expect(response.statusCode).toBe(201);
    const created = learningResourceSchema.parse(response.json());
    expect(created).toMatchObject({ title: valid.title, type: 'video', duration: 7 });
    expect(await formationOf(reader.id)).toEqual({ done: false, label: 'Formation incomplète' });

    // Reading it (the technician's own route) completes the training again and lists the reader.
    const view = await as(
      ctx.app,
      readerCookie,
    )({ method: 'POST', url: `/api/learning-resources/${created.id}/view`, payload: { technicianId: reader.id } });
    expect(view.statusCode).toBe(200);
    expect(await formationOf(reader.id)).toEqual({ done: true, label: 'Formation complétée' });
    const readers = await as(ctx.app, adminCookie)({ method: 'GET', url: `/api/learning-resources/${created.id}/readers` });
    expect(readers.statusCode).toBe(200);
    const list = resourceReaderSchema.array().parse(readers.json());
    expect(list).toEqual([expect.objectContaining({ technicianId: reader.id, firstName: 'Sarah', lastName: 'Benali' })]);
    expect(readers.headers['x-total-count']).toBe('1');
  });

  it('accepts an empty duration', async () => {
    const response = await as(
      ctx.app,
      adminCookie,
    )({ method: 'POST', url: '/api/learning-resources', payload: { ...valid, duration: null } });
    expect(response.statusCode).toBe(201);
    expect(response.json().duration).toBeNull();
    await as(ctx.app, adminCookie)({ method: 'DELETE', url: `/api/learning-resources/${response.json().id}` });
  });

  it.each([
    [{ title: '' }, 'Le titre est requis'],
    [{ title: undefined }, 'Le titre est requis'],
    [{ description: '   ' }, 'La description est requise'],
    [{ type: 'podcast' }, 'Le type est requis'],
    [{ url: '' }, 'Le lien est requis'],
    [{ url: 'javascript:alert(1)' }, 'Le lien doit être une URL valide (http ou https)'],
    [{ duration: 0 }, 'La durée doit être d’au moins 1 minute'],
    [{ duration: 2.5 }, 'La durée doit être un nombre entier de minutes'],
  ])('refuses %j with 400 "%s" and writes nothing', async (patch, message) => {
    const before = await countRows(ctx.db, 'learning_resources');
    const response = await as(
      ctx.app,
      adminCookie,
    )({ method: 'POST', url: '/api/learning-resources', payload: { ...valid, ...patch } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
    expect(await countRows(ctx.db, 'learning_resources')).toBe(before);
  });
});

describe('PUT and DELETE /api/learning-resources/:id', () => {
  it('edits a resource; 404 when unknown; validation applies', async () => {
    const response = await as(
      ctx.app,
      adminCookie,
    )({
      method: 'PUT',
      url: `/api/learning-resources/${existingId}`,
      payload: { ...valid, title: 'Chaîne de survie (2026)', type: 'pdf' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: existingId, title: 'Chaîne de survie (2026)', type: 'pdf' });
    const unknown = await as(
      ctx.app,
      adminCookie,
    )({ method: 'PUT', url: `/api/learning-resources/${crypto.randomUUID()}`, payload: valid });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Ressource introuvable');
    const invalid = await as(
      ctx.app,
      adminCookie,
    )({ method: 'PUT', url: `/api/learning-resources/${existingId}`, payload: { ...valid, duration: -1 } });
    expect(invalid.statusCode).toBe(400);
    const [row] = await ctx.db.select().from(learningResources).where(eq(learningResources.id, existingId));
    expect(row!.title).toBe('Chaîne de survie (2026)');
  });

  it('deletes a resource with its views and completes the training of those who read all the others', async () => {
    const { technician: unread } = await createTechnician(ctx.db);
    await ctx.db.insert(resourceViews).values({ resourceId: existingId, technicianId: unread.id });
    const [extra] = await ctx.db
      .insert(learningResources)
      .values({ title: 'Pas lu', description: 'd', url: 'https://c.test' })
      .returning();
    await syncFormation(ctx.db);
    expect((await formationOf(unread.id)).done).toBe(false);
    const response = await as(ctx.app, adminCookie)({ method: 'DELETE', url: `/api/learning-resources/${extra!.id}` });
    expect(response.statusCode).toBe(200);
    expect(await ctx.db.select().from(learningResources).where(eq(learningResources.id, extra!.id))).toHaveLength(0);
    // It still has not read the module created in the first test.
    const all = await ctx.db.select({ id: learningResources.id }).from(learningResources);
    const views = await ctx.db.select().from(resourceViews).where(eq(resourceViews.technicianId, unread.id));
    expect((await formationOf(unread.id)).done).toBe(all.every((r) => views.some((v) => v.resourceId === r.id)));
    const again = await as(ctx.app, adminCookie)({ method: 'DELETE', url: `/api/learning-resources/${extra!.id}` });
    expect(again.statusCode).toBe(404);
  });
});

describe('GET /api/learning-resources/:id/readers and /reader-counts', () => {
  it('lists real readers with a search; empty when nobody read it; 404 for an unknown resource', async () => {
    const { technician: other } = await createTechnician(ctx.db, { firstName: 'Julien', lastName: 'Moreau' });
    await ctx.db.insert(resourceViews).values({ resourceId: existingId, technicianId: other.id });
    const get = (url: string) => as(ctx.app, adminCookie)({ method: 'GET', url });
    const all = await get(`/api/learning-resources/${existingId}/readers`);
    expect(all.json().length).toBeGreaterThanOrEqual(2);
    const searched = await get(`/api/learning-resources/${existingId}/readers?search=moreau`);
    expect(searched.json().map((r: { firstName: string }) => r.firstName)).toEqual(['Julien']);
    const byFullName = await get(`/api/learning-resources/${existingId}/readers?search=sarah%20ben`);
    expect(byFullName.json()).toHaveLength(1);
    const [unreadResource] = await ctx.db
      .insert(learningResources)
      .values({ title: 'Personne', description: 'd', url: 'https://d.test' })
      .returning();
    expect((await get(`/api/learning-resources/${unreadResource!.id}/readers`)).json()).toEqual([]);
    expect((await get(`/api/learning-resources/${crypto.randomUUID()}/readers`)).statusCode).toBe(404);
    const counts = await get('/api/learning-resources/reader-counts');
    expect(counts.statusCode).toBe(200);
    expect(counts.json()[existingId]).toBe(all.json().length);
    expect(counts.json()[unreadResource!.id]).toBeUndefined();
    // Kept by the database (migration 0032): a reader removed with its account, a first reader of the other resource.
    await ctx.db.delete(technicians).where(eq(technicians.id, other.id));
    await ctx.db.insert(resourceViews).values({ resourceId: unreadResource!.id, technicianId: (await createTechnician(ctx.db)).technician.id });
    const after = (await get('/api/learning-resources/reader-counts')).json();
    expect(after[existingId]).toBe(all.json().length - 1);
    expect(after[unreadResource!.id]).toBe(1);
  });
});

describe('GET /api/learning-resources/:id/readers, pages', () => {
  it('pages the readers most recent first, ties by technician, with the total of the whole list or of the search', async () => {
    const [resource] = await ctx.db.insert(learningResources).values({ title: 'Pages', description: 'd', url: 'https://p.test' }).returning();
    const readers: (typeof reader)[] = [];
    for (let i = 0; i < 5; i += 1) readers.push((await createTechnician(ctx.db, { lastName: i < 2 ? 'Pagier' : `Lecteur${i}` })).technician);
    const tie = new Date('2026-11-20T10:00:00Z');
    const viewedAt = [new Date('2026-11-21T09:00:00Z'), tie, tie, tie, new Date('2026-11-19T08:00:00Z')];
    await ctx.db.insert(resourceViews).values(readers.map((r, i) => ({ resourceId: resource!.id, technicianId: r.id, viewedAt: viewedAt[i]! })));
    const tied = readers.slice(1, 4).map((r) => r.id).sort();
    const expected = [readers[0]!.id, ...tied, readers[4]!.id];
    const get = (query: string) => as(ctx.app, adminCookie)({ method: 'GET', url: `/api/learning-resources/${resource!.id}/readers?${query}` });
    const pages = [await get('limit=2'), await get('limit=2&offset=2'), await get('limit=2&offset=4')];
    expect(pages.map((page) => page.json().map((r: { technicianId: string }) => r.technicianId)).flat()).toEqual(expected);
    expect(pages.map((page) => page.headers['x-total-count'])).toEqual(['5', '5', '5']);
    expect((await get('limit=2&offset=10')).headers['x-total-count']).toBe('5');
    const searched = await get('search=pagier&limit=1');
    expect(searched.json()).toHaveLength(1);
    expect(searched.headers['x-total-count']).toBe('2');
    await ctx.db.delete(technicians).where(eq(technicians.id, readers[2]!.id));
    const after = await get('limit=10');
    expect(after.json().map((r: { technicianId: string }) => r.technicianId)).toEqual(expected.filter((id) => id !== readers[2]!.id));
    expect(after.headers['x-total-count']).toBe('4');
  });
});

describe('access', () => {
  it('admin only: 401 anonymous, 403 technician, nothing written; the list stays readable by technicians', async () => {
    const before = await countRows(ctx.db, 'learning_resources');
    const routes = [
      { method: 'POST' as const, url: '/api/learning-resources', payload: valid },
      { method: 'PUT' as const, url: `/api/learning-resources/${existingId}`, payload: valid },
      { method: 'DELETE' as const, url: `/api/learning-resources/${existingId}` },
      { method: 'GET' as const, url: `/api/learning-resources/${existingId}/readers` },
      { method: 'GET' as const, url: '/api/learning-resources/reader-counts' },
    ];
    for (const route of routes) {
      expect((await as(ctx.app, null)(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      expect((await as(ctx.app, readerCookie)(route)).statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    expect(await countRows(ctx.db, 'learning_resources')).toBe(before);
    expect((await as(ctx.app, readerCookie)({ method: 'GET', url: '/api/learning-resources' })).statusCode).toBe(200);
  });
});
