import { and, eq, inArray, sql } from 'drizzle-orm';
import { RECRUITED_APPLICATION_STATUSES } from '@maillon/common/enums';
import type { Db } from '../db/client';
import { preparedQuery } from '../db/prepared-queries';
import { applications, invoices, missions, shipments, storedFiles, visitReports } from '../db/schema';

/**
 * How the owning technician of a request is found, for every route a technician may call (the route policy
 * registry of issue 9). Checked before validation by the access plugin: a technician naming another technician's
 * record gets 404. The access-matrix test fails for a technician-callable route missing here.
 *
 * - technician: the value is a technician id; application / invoice / shipment / file: the record's technician;
 *   batch: the lot's recruited (or finished) technician; user: the value must be the caller's own user id;
 *   mission: the recruited (or finished) technician of the mission's lot; visit-report: the report's technician.
 * - self: the route has no id; the service scopes the answer to the caller. none: shared data (no owner).
 */
export type OwnerKind = 'technician' | 'application' | 'invoice' | 'shipment' | 'file' | 'batch' | 'user' | 'mission' | 'visit-report';
export type OwnerRule =
  | { kind: 'self' | 'none' }
  | { kind: OwnerKind; from: 'params' | 'query' | 'body'; key: string; optional?: boolean };

const param = (kind: OwnerKind, key = 'id'): OwnerRule => ({ kind, from: 'params', key });
const query = (key = 'technicianId', optional = false): OwnerRule => ({ kind: 'technician', from: 'query', key, optional });
const body = (key = 'technicianId'): OwnerRule => ({ kind: 'technician', from: 'body', key });

export const OWNERSHIP: Record<string, OwnerRule> = {
  'GET /api/auth/me': { kind: 'self' },
  // A technician's list is its Recruté lots' devices; ?batchId= of another's lot gives an empty list (field-work.service).
  'GET /api/missions': { kind: 'self' },
  'GET /api/learning-resources': { kind: 'none' },
  'POST /api/calculate-distance': { kind: 'none' },
  'GET /api/mission-batches/available-filters': { kind: 'none' },
  'PATCH /api/users/:id/password': param('user'),

  'GET /api/applications': query('technicianId', true),
  'GET /api/applications/status-counts': query('technicianId', true),
  'GET /api/mission-batches/available-for-application': query(),
  'GET /api/mission-batches/available-for-application/map': query(),
  'GET /api/mission-batches/available-for-application/:id': query(),
  'GET /api/resource-views': query(),
  'GET /api/shipments': query(),
  'POST /api/applications': body(),
  'POST /api/applications/batch': body(),
  'POST /api/learning-resources/:id/view': body(),
  'POST /api/emails/client-notification': body(),
  'POST /api/technician-mission-data': body(),

  'GET /api/applications/:id/technician-comment': param('application'),
  'PUT /api/applications/:id/technician-comment': param('application'),
  'GET /api/applications/:id/work': param('application'),
  'PATCH /api/applications/:id/complete': param('application'),
  'PATCH /api/applications/:id/cancel': param('application'),
  'POST /api/applications/:id/sort-route': param('application'),
  'GET /api/applications/:id/route-map': param('application'),
  'GET /api/applications/:id/parts': param('application'),
  'GET /api/files/:id': param('file'),
  'GET /api/invoices/:invoiceId/fiscal-receipt': param('invoice', 'invoiceId'),
  'POST /api/invoice/:id/submit': param('invoice'),
  'POST /api/invoice/:id/inspect': param('invoice'),
  'PATCH /api/shipments/:id/receive': param('shipment'),
  'PATCH /api/mission-batches/:id/defibrillators-done': param('batch'),

  'GET /api/technician-mission-data/:missionId/:technicianId': param('technician', 'technicianId'),
  'PATCH /api/technician-mission-data/:missionId/:technicianId': param('technician', 'technicianId'),
  'GET /api/technician-mission-data/all/:technicianId': param('technician', 'technicianId'),
  'GET /api/technician/:id/invoices': param('technician'),
  'GET /api/technician/:id/transfers': param('technician'),
  'GET /api/technician/:id/revenue-summary': param('technician'),
  'GET /api/technician/:id/statements': param('technician'),
  'GET /api/technician/:id/statements/annual.pdf': param('technician'),
  'GET /api/technicians/:id': param('technician'),
  'GET /api/technicians/:id/counts': param('technician'),
  'PATCH /api/technicians/:id': param('technician'),
  'PATCH /api/technicians/:id/banking': param('technician'),
  'PATCH /api/technicians/:id/comments': param('technician'),
  'PATCH /api/technicians/:id/departments': param('technician'),
  'PATCH /api/technicians/:id/personal': param('technician'),
  'PATCH /api/technicians/:id/professional': param('technician'),
  'PATCH /api/technicians/:id/relay-point': param('technician'),
  'POST /api/technicians/:id/upload-cv': param('technician'),
  'POST /api/technicians/:id/upload-identity': param('technician'),
  'GET /api/technicians/:id/calendar-feed': param('technician'),
  'POST /api/technicians/:id/calendar-feed': param('technician'),
  'POST /api/technician-mission-data/:missionId/:technicianId/site-proposal/accept': param('technician', 'technicianId'),
  'POST /api/technician-mission-data/:missionId/:technicianId/site-proposal/refuse': param('technician', 'technicianId'),

  // Visit reports (issue 16): the mission's recruit; the lot's label sheet: the lot's recruit.
  'GET /api/missions/:missionId/visit-report': param('mission', 'missionId'),
  'PUT /api/missions/:missionId/visit-report': param('mission', 'missionId'),
  'PUT /api/missions/:missionId/visit-report/draft': param('mission', 'missionId'),
  'PUT /api/missions/:missionId/visit-report/photos/:photoId': param('mission', 'missionId'),
  'DELETE /api/missions/:missionId/visit-report/photos/:photoId': param('mission', 'missionId'),
  'GET /api/missions/:missionId/visit-report/photos/:photoId': param('mission', 'missionId'),
  'GET /api/missions/:missionId/visit-report/pdf': param('mission', 'missionId'),
  'GET /api/visit-reports/:id/pdf': param('visit-report'),
  'GET /api/mission-batches/:id/labels': param('batch'),
};

export function ownershipRule(method: string, url: string): OwnerRule | undefined {
  return OWNERSHIP[`${method} ${url}`];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The value the rule points at, if it is a well-formed id (otherwise validation answers 400 later). */
export function ownerValue(rule: OwnerRule, source: { params?: unknown; query?: unknown; body?: unknown }): string | undefined {
  if (!('from' in rule)) return undefined;
  const container = source[rule.from] as Record<string, unknown> | undefined;
  const value = container && typeof container === 'object' ? container[rule.key] : undefined;
  return typeof value === 'string' && UUID.test(value) ? value : undefined;
}

/**
 * The technician of each application met, kept in the process: an application's technician never changes (only its
 * status and the admin's comment do), so what is kept stays true on every instance with nothing to invalidate. The
 * field-work screen and its route map, comment and parts are read by application (decision 059). At most
 * APPLICATION_OWNERS_KEPT, the oldest forgotten first; an unknown id is never kept.
 */
const applicationOwners = new Map<string, string>();
export const APPLICATION_OWNERS_KEPT = 10_000;

async function applicationOwner(db: Db, id: string): Promise<string | null> {
  const known = applicationOwners.get(id);
  if (known !== undefined) return known;
  const lookup = preparedQuery(db, 'application-owner', () =>
    db
      .select({ t: applications.technicianId })
      .from(applications)
      .where(eq(applications.id, sql.placeholder('id')))
      .limit(1)
      .prepare('maillon_application_owner'),
  );
  const [row] = await lookup.execute({ id });
  if (!row) return null;
  if (applicationOwners.size >= APPLICATION_OWNERS_KEPT) applicationOwners.delete(applicationOwners.keys().next().value!);
  applicationOwners.set(id, row.t);
  return row.t;
}

/** The technician owning the record (null when it does not exist or has none). */
export async function resolveOwner(db: Db, kind: OwnerKind, id: string): Promise<string | null> {
  switch (kind) {
    case 'technician':
      return id;
    case 'application':
      return applicationOwner(db, id);
    case 'invoice': {
      const [row] = await db.select({ t: invoices.technicianId }).from(invoices).where(eq(invoices.id, id)).limit(1);
      return row?.t ?? null;
    }
    case 'shipment': {
      const [row] = await db.select({ t: shipments.technicianId }).from(shipments).where(eq(shipments.id, id)).limit(1);
      return row?.t ?? null;
    }
    case 'file': {
      const [row] = await db.select({ t: storedFiles.technicianId }).from(storedFiles).where(eq(storedFiles.id, id)).limit(1);
      return row?.t ?? null;
    }
    case 'batch': {
      const [row] = await db
        .select({ t: applications.technicianId })
        .from(applications)
        .where(and(eq(applications.batchId, id), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
        .limit(1);
      return row?.t ?? null;
    }
    case 'user':
      return id;
    case 'mission': {
      const [row] = await db
        .select({ t: applications.technicianId })
        .from(missions)
        .innerJoin(applications, and(eq(applications.batchId, missions.batchId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
        .where(eq(missions.id, id))
        .limit(1);
      return row?.t ?? null;
    }
    case 'visit-report': {
      const [row] = await db.select({ t: visitReports.technicianId }).from(visitReports).where(eq(visitReports.id, id)).limit(1);
      return row?.t ?? null;
    }
  }
}
