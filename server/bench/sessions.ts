import { SCALE_ADMIN_EMAIL, SCALE_PASSWORD } from '../src/db/seed/scale';
import type { Session } from './endpoints';

/**
 * Logs in through the real route (the scale seed's password) and keeps the session cookie; the admin by default.
 * `forwardedFor` spreads many logins over client addresses (the servers trust X-Forwarded-For in the bench).
 */
export async function loginAs(base: string, email: string = SCALE_ADMIN_EMAIL, forwardedFor?: string): Promise<Session> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: JSON.stringify({ email, password: SCALE_PASSWORD }),
  });
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { technician: { id: string } | null };
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  const technicianId = body.technician?.id ?? null;
  const get = async (url: string) => {
    const answer = await fetch(`${base}${url}`, { headers: { cookie } });
    return { status: answer.status, body: await answer.text() };
  };
  if (technicianId) return { cookie, technicianId, lotId: null, applicationId: await recruitedApplicationId(get, technicianId) };
  return { cookie, technicianId, ...(await firstLots(get)) };
}

/**
 * The technician's first « Recruté » application, as « Candidatures » lists it, whose field-work screen the load opens.
 * `get` answers a GET of the technician's (over HTTP, or through inject for the SQL capture).
 */
export async function recruitedApplicationId(
  get: (url: string) => Promise<{ status: number; body: string }>,
  technicianId: string,
): Promise<string | null> {
  const { status, body } = await get(`/api/applications?technicianId=${technicianId}&status=Recrut%C3%A9`);
  if (status !== 200) throw new Error(`candidatures : ${status} ${body}`);
  return (JSON.parse(body) as { id: string }[])[0]?.id ?? null;
}

/**
 * The lot the admin's « Missions & Lots » shows first (the most recent active one), whose card opens its missions.
 * `get` answers a GET of the admin's: over HTTP for the load, through inject for the SQL capture (sql-capture.ts).
 */
export async function firstLots(get: (url: string) => Promise<{ status: number; body: string }>): Promise<Pick<Session, 'lotId' | 'recruitedLotIds'>> {
  const { status, body } = await get('/api/mission-batches?limit=20');
  if (status !== 200) throw new Error(`lots : ${status} ${body}`);
  // A page of lot cards all with a recruit, the most « Missions & Lots » asks proposals for (the scale seed's first page
  // has none): the lots of Expéditions' first page.
  const proposals = await get('/api/admin/parts/proposals?limit=20');
  if (proposals.status !== 200) throw new Error(`colis proposés : ${proposals.status} ${proposals.body}`);
  return {
    lotId: (JSON.parse(body) as { id: string }[])[0]?.id ?? null,
    // A build before decision 060 answers an array (no page): its cards' proposals are not read.
    recruitedLotIds: ((JSON.parse(proposals.body) as { items?: { batchId: string }[] }).items ?? []).map((p) => p.batchId),
  };
}

/** `count` technicians of the scale seed, every seventh (tech7, tech14…): homes spread over its departments. */
export async function loginTechnicians(base: string, count: number): Promise<Session[]> {
  const sessions: Session[] = [];
  for (let i = 1; i <= count; i += 1) sessions.push(await loginAs(base, `tech${i * 7}@bench.maillon.test`));
  return sessions;
}
