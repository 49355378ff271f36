import { and, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_CARRIER } from '@maillon/common/constants';
import type { ShipmentStatus } from '@maillon/common/enums';
import type { TechnicianOption, TechnicianOptionsQuery } from '@maillon/common/schemas/money';
import {
  NO_POSTAL_CODE,
  NO_RELAY_POINT,
  type CreateShipmentRequest,
  type Shipment,
  type ShipmentListQuery,
  type ShipmentLotOption,
  type ShipmentLotOptionsQuery,
  type ShipmentSummary,
  type UpdateShipmentRequest,
} from '@maillon/common/schemas/shipments';
import type { Db, DbOrTx } from '../../db/client';
import { applications, missionBatches, missions, shipments, technicians } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { jsonRowSql, likePattern, pageSql, pageText, searchPageText, whereAll, type SearchPageText } from '../../lib/pagination';
import { allRowsCountSql, countsByStatus, statusCountSql } from '../../lib/row-counts';
import { matchingWithTechnicianSql, searchedWithTechnician } from '../../lib/substring-search';
import { listTechnicianOptions } from '../../lib/technician-options';
import { getRecruitedTechnicianId, lotsWithRecruit } from '../lifecycle/lifecycle.service';

/** A parcel's row as the admin sees it (its searched text is the search's, not shown). */
type ShipmentRow = Omit<typeof shipments.$inferSelect, 'searchText'>;

const technicianName = sql<
  string | null
>`case when ${technicians.id} is null then null else ${technicians.firstName} || ' ' || ${technicians.lastName} end`;

function toShipment(row: ShipmentRow, name: string | null): Shipment {
  return {
    id: row.id,
    batchId: row.batchId,
    technicianId: row.technicianId,
    technicianName: name,
    missionId: row.missionId,
    trackingNumber: row.trackingNumber,
    carrier: row.carrier,
    status: row.status as ShipmentStatus,
    shippedDate: row.shippedDate?.toISOString() ?? null,
    deliveredDate: row.deliveredDate?.toISOString() ?? null,
    destination: row.destination,
    destinationPostalCode: row.destinationPostalCode,
    content: row.content,
    missionTitle: row.missionTitle,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** "YYYY-MM-DD" (a form's day) is kept at midday UTC so it reads as the same day in France. */
function parseDate(value: string | null | undefined): Date | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T12:00:00Z` : value);
}

function filterConditions(query: Omit<ShipmentListQuery, 'status'>): SQL[] {
  const conditions: SQL[] = [];
  if (query.technicianId) conditions.push(eq(shipments.technicianId, query.technicianId));
  if (query.batchId) conditions.push(eq(shipments.batchId, query.batchId));
  // Its own text or its technician's, each on a trigram index (decision 039).
  if (query.search) conditions.push(sql`${shipments.id} in ${matchingWithTechnicianSql('shipments', query.search)}`);
  return conditions;
}



/**
 * A shipment `s` of the page and its technician's name as the answer's JSON object, written by PostgreSQL with the keys
 * of shipmentSchema and the values toShipment gives (the times as `toISOString`: maillon_json_time). The page is sent
 * as PostgreSQL wrote it (decision 049); `admin-shipments-list.test.ts` compares each object with the single-parcel
 * read's and parses the page with `shipmentSchema.strict()`.
 */
const shipmentJsonSql = jsonRowSql({
  id: 's.id',
  batchId: 's.batch_id',
  technicianId: 's.technician_id',
  technicianName: 's.technician_name',
  missionId: 's.mission_id',
  trackingNumber: 's.tracking_number',
  carrier: 's.carrier',
  status: 's.status',
  shippedDate: 'maillon_json_time(s.shipped_date)',
  deliveredDate: 'maillon_json_time(s.delivered_date)',
  destination: 's.destination',
  destinationPostalCode: 's.destination_postal_code',
  content: 's.content',
  missionTitle: 's.mission_title',
  createdAt: 'maillon_json_time(s.created_at)',
  updatedAt: 'maillon_json_time(s.updated_at)',
});

/**
 * The admin list: filtered, searched and paged on the server, newest first. Without a search, one statement: the page
 * as one JSON value (walking shipments_created_idx), and its total: the counts the database keeps (row_counts by
 * status, decision 027) without a technician or lot, else a count. A search counts the parcels it finds (both trigram
 * indexes) up to TOTAL_CAP + 1 and sorts them for the page; past the cap, its page walks the order with the search as
 * a filter (searchPageText, decision 042).
 */
export async function listShipments(
  db: Db,
  query: ShipmentListQuery & { limit: number; offset: number },
): Promise<SearchPageText> {
  const others = filterConditions({ ...query, search: undefined });
  const status = query.status && query.status !== 'all' ? query.status : null;
  if (status) others.push(eq(shipments.status, status));
  const pageJson = (conditions: SQL[]) => sql`
      coalesce((select json_agg(${shipmentJsonSql} order by s.created_at desc, s.id desc) from (
        select shipments.*, ${technicianName} as technician_name
        from shipments left join technicians on technicians.id = shipments.technician_id ${whereAll(conditions)}
        order by shipments.created_at desc, shipments.id desc ${pageSql(query.limit, query.offset)}
      ) s), '[]')`;
  const { search } = query;
  if (search) {
    return searchPageText(db, { ...searchedWithTechnician('shipments', search, others), pageJson }, query);
  }
  const total =
    query.technicianId || query.batchId
      ? sql`(select count(*)::int from shipments where ${and(...others)})`
      : status
        ? statusCountSql('shipments', [status])
        : allRowsCountSql('shipments');
  return pageText(db, total, pageJson(others));
}

/** Counts per status pill under the current filters. */
export async function getShipmentSummary(db: Db, query: Omit<ShipmentListQuery, 'status'>): Promise<ShipmentSummary> {
  const conditions = filterConditions(query);
  // Without a filter, the counts the database keeps (decision 027); with one, the filtered parcels grouped.
  const byStatus = conditions.length
    ? await db.select({ status: shipments.status, n: count() }).from(shipments).where(and(...conditions)).groupBy(shipments.status)
    : await countsByStatus(db, 'shipments');
  const counts = { all: 0, draft: 0, in_transit: 0, delivered: 0, cancelled: 0 };
  for (const row of byStatus) {
    const n = Number(row.n);
    counts.all += n;
    if (row.status in counts) counts[row.status as ShipmentStatus] += n;
  }
  return { counts };
}

/** The technicians that have parcels, searched, by name, a few at a time (the technician filter). */
export async function listShipmentTechnicians(db: Db, query: TechnicianOptionsQuery): Promise<TechnicianOption[]> {
  return listTechnicianOptions(db, 'shipments', query);
}

/**
 * Active lots with a recruited technician: the lots a parcel can be prepared for, whose title contains `search` (or the
 * one lot `batchId`), by title, at most `limit` (the modal's picker asks a few at a time).
 */
export async function listShipmentLotOptions(
  db: Db,
  { search, batchId, limit }: ShipmentLotOptionsQuery,
): Promise<ShipmentLotOption[]> {
  const rows = await db
    .select({
      batchId: missionBatches.id,
      title: missionBatches.title,
      technicianId: technicians.id,
      firstName: technicians.firstName,
      lastName: technicians.lastName,
      relayPoint: technicians.preferredRelayPoint,
    })
    .from(missionBatches)
    .innerJoin(applications, lotsWithRecruit.recruitOfLot)
    .innerJoin(technicians, eq(technicians.id, applications.technicianId))
    .where(
      and(
        lotsWithRecruit.lotIsActiveWithRecruit,
        search ? ilike(missionBatches.title, likePattern(search)) : undefined,
        batchId ? eq(missionBatches.id, batchId) : undefined,
      ),
    )
    .orderBy(...lotsWithRecruit.byTitle)
    .limit(limit);
  return rows.map((r) => ({
    batchId: r.batchId,
    title: r.title,
    technicianId: r.technicianId,
    technicianName: `${r.firstName} ${r.lastName}`,
    destination: r.relayPoint?.trim() || NO_RELAY_POINT,
  }));
}

/** The lot's recruited technician and its relay point: who receives a parcel for this lot, and where. */
async function resolveRecipient(tx: DbOrTx, batchId: string) {
  const [lot] = await tx
    .select({ id: missionBatches.id, title: missionBatches.title, isSystem: missionBatches.isSystem })
    .from(missionBatches)
    .where(eq(missionBatches.id, batchId))
    .limit(1);
  if (!lot) throw new AppError('NOT_FOUND', 'Lot de mission introuvable');
  if (lot.isSystem)
    throw new AppError('BAD_REQUEST', 'Ce lot ne peut pas recevoir d’expédition', {
      batchId: 'Ce lot ne peut pas recevoir d’expédition',
    });
  const technicianId = await getRecruitedTechnicianId(tx, batchId);
  if (!technicianId) throw new AppError('CONFLICT', 'Aucun technicien n’est recruté sur ce lot');
  const [technician] = await tx
    .select({ relayPoint: technicians.preferredRelayPoint })
    .from(technicians)
    .where(eq(technicians.id, technicianId))
    .limit(1);
  return { lot, technicianId, destination: technician?.relayPoint?.trim() || NO_RELAY_POINT };
}

async function assertMissionInLot(tx: DbOrTx, missionId: string | null | undefined, batchId: string) {
  if (!missionId) return;
  const [mission] = await tx.select({ batchId: missions.batchId }).from(missions).where(eq(missions.id, missionId)).limit(1);
  if (!mission || mission.batchId !== batchId) {
    throw new AppError('BAD_REQUEST', 'Cette mission n’appartient pas au lot choisi', {
      missionId: 'Cette mission n’appartient pas au lot choisi',
    });
  }
}

/** One parcel as the admin reads it. */
export async function getShipmentView(tx: DbOrTx, id: string): Promise<Shipment> {
  const [row] = await tx
    .select({ shipment: shipments, technicianName })
    .from(shipments)
    .leftJoin(technicians, eq(technicians.id, shipments.technicianId))
    .where(eq(shipments.id, id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'Expédition introuvable');
  return toShipment(row.shipment, row.technicianName);
}

/**
 * Creates a parcel for a lot: the recipient is the lot's recruited technician, the destination its preferred relay
 * point, the carrier Mondial Relay, the mission title the lot's title; the date defaults to today.
 */
export async function createShipment(db: Db, input: CreateShipmentRequest): Promise<Shipment> {
  return db.transaction((tx) => createShipmentIn(tx, input));
}

/** The same in the caller's transaction (the parts module creates a lot's proposed parcel with its parts). */
export async function createShipmentIn(tx: DbOrTx, input: CreateShipmentRequest): Promise<Shipment> {
  {
    const recipient = await resolveRecipient(tx, input.batchId);
    await assertMissionInLot(tx, input.missionId, input.batchId);
    const [row] = await tx
      .insert(shipments)
      .values({
        batchId: input.batchId,
        technicianId: recipient.technicianId,
        missionId: input.missionId ?? null,
        carrier: DEFAULT_CARRIER,
        status: input.status,
        destination: recipient.destination,
        destinationPostalCode: input.destinationPostalCode || NO_POSTAL_CODE,
        shippedDate: parseDate(input.shippedDate) ?? new Date(),
        content: input.content || null,
        trackingNumber: input.trackingNumber || null,
        missionTitle: recipient.lot.title,
      })
      .returning({ id: shipments.id });
    return getShipmentView(tx, row!.id);
  }
}

/** Edit modal: any field, and the status freely among the four (delivery date kept in step with the status). */
export async function updateShipment(db: Db, id: string, input: UpdateShipmentRequest): Promise<Shipment> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from shipments where id = ${id} for update`);
    const [current] = await tx.select().from(shipments).where(eq(shipments.id, id)).limit(1);
    if (!current) throw new AppError('NOT_FOUND', 'Expédition introuvable');
    const patch: Partial<typeof shipments.$inferInsert> = {};
    if (input.batchId && input.batchId !== current.batchId) {
      const recipient = await resolveRecipient(tx, input.batchId);
      patch.batchId = input.batchId;
      patch.technicianId = recipient.technicianId;
      patch.missionTitle = recipient.lot.title;
      patch.destination = recipient.destination;
      patch.missionId = null;
    }
    if (input.destination !== undefined) patch.destination = input.destination || NO_RELAY_POINT;
    if (input.destinationPostalCode !== undefined) patch.destinationPostalCode = input.destinationPostalCode || NO_POSTAL_CODE;
    if (input.content !== undefined) patch.content = input.content || null;
    if (input.trackingNumber !== undefined) patch.trackingNumber = input.trackingNumber || null;
    const shippedDate = parseDate(input.shippedDate);
    if (shippedDate !== undefined) patch.shippedDate = shippedDate;
    if (input.status && input.status !== current.status) {
      patch.status = input.status;
      if (input.status === 'delivered') patch.deliveredDate = current.deliveredDate ?? new Date();
      else patch.deliveredDate = null;
      if (input.status === 'in_transit' && !(patch.shippedDate ?? current.shippedDate)) patch.shippedDate = new Date();
    }
    if (Object.keys(patch).length > 0) await tx.update(shipments).set(patch).where(eq(shipments.id, id));
    return getShipmentView(tx, id);
  });
}

/** A status change allowed only from some statuses; checked and applied in one statement (no lost update). */
async function moveStatus(
  db: Db,
  id: string,
  { from, to, refused }: { from: ShipmentStatus[]; to: ShipmentStatus; refused: (status: string) => string },
): Promise<Shipment> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(shipments)
      .set({ status: to, ...(to === 'in_transit' ? { shippedDate: new Date() } : {}) })
      .where(and(eq(shipments.id, id), inArray(shipments.status, from)))
      .returning({ id: shipments.id });
    if (updated.length === 0) {
      const [current] = await tx.select({ status: shipments.status }).from(shipments).where(eq(shipments.id, id)).limit(1);
      if (!current) throw new AppError('NOT_FOUND', 'Expédition introuvable');
      throw new AppError('INVALID_TRANSITION', refused(current.status));
    }
    return getShipmentView(tx, id);
  });
}

/** Annuler: any parcel not yet received. */
export function cancelShipment(db: Db, id: string): Promise<Shipment> {
  return moveStatus(db, id, {
    from: ['draft', 'in_transit'],
    to: 'cancelled',
    refused: (status) =>
      status === 'delivered' ? 'Une expédition réceptionnée ne peut pas être annulée' : 'Cette expédition est déjà annulée',
  });
}

/** Expédié: only from Brouillon; the shipping date becomes today. */
export function shipShipment(db: Db, id: string): Promise<Shipment> {
  return moveStatus(db, id, {
    from: ['draft'],
    to: 'in_transit',
    refused: () => 'Seule une expédition en brouillon peut être marquée comme expédiée',
  });
}
