import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { learningResourceSchema, recordViewResponseSchema, resourceViewSchema } from '@maillon/common/schemas/learning-resources';
import { FORMATION_DONE, FORMATION_NOT_DONE } from '@maillon/common/constants';
import { learningResources, resourceViews, technicians } from '../../db/schema';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;
let resourceIds: string[];

beforeAll(async () => {
  ctx = await createTestContext();
  techA = await createTechnician(ctx.db);
  techB = await createTechnician(ctx.db);
  const admin = await createAdmin(ctx.db);
  [cookieA, cookieB, cookieAdmin] = await Promise.all([
    login(ctx.app, techA.technician.email),
    login(ctx.app, techB.technician.email),
    login(ctx.app, admin.email),
  ]);
  const rows = await ctx.db
    .insert(learningResources)
    .values([
      { title: 'La chaîne de survie', description: 'Les quatre maillons', url: 'https://a.test', type: 'video', duration: 8, createdAt: new Date('2026-01-01') },
      { title: 'Réglementation', description: 'Obligations des ERP', url: 'https://b.test', type: 'pdf', duration: 15, createdAt: new Date('2026-01-02') },
    ])
    .returning();
  resourceIds = rows.map((r) => r.id);
});
afterAll(async () => {
  await ctx.close();
});

const viewUrl = (id: string) => `/api/learning-resources/${id}/view`;

describe('GET /api/learning-resources', () => {
  // The list is the JSON PostgreSQL writes (decision 049): parsed with the schema made strict, so a key too many or a
  // date written another way fails here.
  const strictList = learningResourceSchema.strict().array();
  const first = () => ({
    id: resourceIds[0],
    title: 'La chaîne de survie',
    description: 'Les quatre maillons',
    type: 'video',
    url: 'https://a.test',
    duration: 8,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const second = () => ({
    id: resourceIds[1],
    title: 'Réglementation',
    description: 'Obligations des ERP',
    type: 'pdf',
    url: 'https://b.test',
    duration: 15,
    createdAt: '2026-01-02T00:00:00.000Z',
  });

  it('lists the modules in course order for any signed-in account', async () => {
    for (const cookie of [cookieA, cookieAdmin]) {
      const response = await as(ctx.app, cookie)({ method: 'GET', url: '/api/learning-resources' });
      expect(response.statusCode).toBe(200);
      expect(strictList.parse(response.json())).toEqual([first(), second()]);
    }
  });

  it('filters by text in the title or the description, case-insensitively', async () => {
    const byDescription = await as(ctx.app, cookieAdmin)({ method: 'GET', url: '/api/learning-resources?search=erp' });
    expect(strictList.parse(byDescription.json())).toEqual([second()]);
    const byTitle = await as(ctx.app, cookieA)({ method: 'GET', url: '/api/learning-resources?search=CHAÎNE' });
    expect(strictList.parse(byTitle.json())).toEqual([first()]);
    const none = await as(ctx.app, cookieA)({ method: 'GET', url: '/api/learning-resources?search=100%25' });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it('answers 401 without a session', async () => {
    const response = await as(ctx.app, null)({ method: 'GET', url: '/api/learning-resources' });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/learning-resources/:id/view', () => {
  it('records the view once (idempotent) and completes the training when every module is viewed', async () => {
    const first = await as(ctx.app, cookieA)({ method: 'POST', url: viewUrl(resourceIds[0]!), payload: { technicianId: techA.technician.id } });
    expect(first.statusCode).toBe(200);
    const body = recordViewResponseSchema.parse(first.json());
    expect(body.formation).toEqual({ total: 2, read: 1, formationCompleted: false, formationStatus: FORMATION_NOT_DONE });

    const again = await as(ctx.app, cookieA)({ method: 'POST', url: viewUrl(resourceIds[0]!), payload: { technicianId: techA.technician.id } });
    expect(again.statusCode).toBe(200);
    expect(again.json().view).toEqual(body.view);
    expect(await countRows(ctx.db, 'resource_views')).toBe(1);

    const last = await as(ctx.app, cookieA)({ method: 'POST', url: viewUrl(resourceIds[1]!), payload: { technicianId: techA.technician.id } });
    expect(last.json().formation).toEqual({ total: 2, read: 2, formationCompleted: true, formationStatus: FORMATION_DONE });
    const [row] = await ctx.db.select().from(technicians).where(eq(technicians.id, techA.technician.id));
    expect(row).toMatchObject({ formationCompleted: true, formationStatus: FORMATION_DONE });
    const counts = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/technicians/${techA.technician.id}/counts` });
    expect(counts.json().formation).toEqual({ total: 2, read: 2 });
  });

  it('makes the training incomplete again when a new module is added, until it is viewed', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    for (const id of resourceIds) await as(ctx.app, cookie)({ method: 'POST', url: viewUrl(id), payload: { technicianId: technician.id } });
    const [extra] = await ctx.db.insert(learningResources).values({ title: 'Nouveau', description: 'd', url: 'https://c.test' }).returning();
    const response = await as(ctx.app, cookie)({ method: 'POST', url: viewUrl(resourceIds[0]!), payload: { technicianId: technician.id } });
    expect(response.json().formation).toMatchObject({ total: 3, read: 2, formationCompleted: false, formationStatus: FORMATION_NOT_DONE });
    const done = await as(ctx.app, cookie)({ method: 'POST', url: viewUrl(extra!.id), payload: { technicianId: technician.id } });
    expect(done.json().formation.formationCompleted).toBe(true);
    await ctx.db.delete(learningResources).where(eq(learningResources.id, extra!.id));
  });

  it('answers 404 when a technician records a view for another technician, writing nothing', async () => {
    const before = await countRows(ctx.db, 'resource_views');
    const response = await as(ctx.app, cookieB)({ method: 'POST', url: viewUrl(resourceIds[1]!), payload: { technicianId: techA.technician.id } });
    expect(response.statusCode).toBe(404);
    expect(await countRows(ctx.db, 'resource_views')).toBe(before);
  });

  it('answers 404 for an unknown resource, 400 for a bad body, 401 anonymous, 403 for the admin', async () => {
    const before = await countRows(ctx.db, 'resource_views');
    const unknown = await as(ctx.app, cookieB)({
      method: 'POST',
      url: viewUrl('00000000-0000-4000-8000-000000000000'),
      payload: { technicianId: techB.technician.id },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Ressource de formation introuvable' });

    const bad = await as(ctx.app, cookieB)({ method: 'POST', url: viewUrl(resourceIds[0]!), payload: { technicianId: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Identifiant de technicien invalide' });
    const missing = await as(ctx.app, cookieB)({ method: 'POST', url: viewUrl(resourceIds[0]!), payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Technicien requis');

    const anonymous = await as(ctx.app, null)({ method: 'POST', url: viewUrl(resourceIds[0]!), payload: { technicianId: techB.technician.id } });
    expect(anonymous.statusCode).toBe(401);
    const admin = await as(ctx.app, cookieAdmin)({ method: 'POST', url: viewUrl(resourceIds[0]!), payload: { technicianId: techB.technician.id } });
    expect(admin.statusCode).toBe(403);
    expect(await countRows(ctx.db, 'resource_views')).toBe(before);
  });
});

describe('GET /api/resource-views', () => {
  it("lists the technician's own views, and any technician's for the admin", async () => {
    const own = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/resource-views?technicianId=${techA.technician.id}` });
    expect(own.statusCode).toBe(200);
    const views = resourceViewSchema.strict().array().parse(own.json());
    const rows = await ctx.db.select().from(resourceViews).where(eq(resourceViews.technicianId, techA.technician.id));
    // First opened first, each as its row, its date as the other answers write dates.
    const expected = rows
      .sort((a, b) => a.viewedAt.getTime() - b.viewedAt.getTime() || a.id.localeCompare(b.id))
      .map((r) => ({ id: r.id, resourceId: r.resourceId, technicianId: r.technicianId, viewedAt: r.viewedAt.toISOString() }));
    expect(views).toEqual(expected);
    expect(views.map((v) => v.resourceId).sort()).toEqual([...resourceIds].sort());
    const admin = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/resource-views?technicianId=${techA.technician.id}` });
    expect(admin.json()).toHaveLength(2);
  });

  it("hides another technician's views (404), needs a session and a technician id", async () => {
    const other = await as(ctx.app, cookieB)({ method: 'GET', url: `/api/resource-views?technicianId=${techA.technician.id}` });
    expect(other.statusCode).toBe(404);
    const anonymous = await as(ctx.app, null)({ method: 'GET', url: `/api/resource-views?technicianId=${techA.technician.id}` });
    expect(anonymous.statusCode).toBe(401);
    const missing = await as(ctx.app, cookieB)({ method: 'GET', url: '/api/resource-views' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Technicien requis');
    expect(await ctx.db.select().from(resourceViews).where(eq(resourceViews.technicianId, techB.technician.id))).toHaveLength(0);
  });
});
