import { and, asc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import { RECRUITED_APPLICATION_STATUSES, type ConsumableKind, type ShipmentStatus } from '@maillon/common/enums';
import { DEFAULT_EXPIRY_MARGIN_DAYS, DEFAULT_SHIP_DAYS_BEFORE_VISIT } from '@maillon/common/schemas/parts';
import type { DbOrTx } from '../../db/client';
import { preparedSql } from '../../db/prepared-queries';
import { literalLimit } from '../../lib/pagination';
import {
  applications,
  devices,
  lotPartShipments,
  lotPartsKept,
  missionBatches,
  missions,
  modelConsumables,
  partsSettings,
  shipmentParts,
  shipments,
  technicians,
  visitReports,
} from '../../db/schema';
import { lotsWithRecruit } from '../lifecycle/lifecycle.service';

export async function findSettings(tx: DbOrTx) {
  const [row] = await tx
    .select({ expiryMarginDays: partsSettings.expiryMarginDays, shipDaysBeforeVisit: partsSettings.shipDaysBeforeVisit })
    .from(partsSettings)
    .where(eq(partsSettings.id, 1))
    .limit(1);
  return row ?? null;
}

export async function upsertSettings(tx: DbOrTx, values: { expiryMarginDays: number; shipDaysBeforeVisit: number }) {
  await tx
    .insert(partsSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: partsSettings.id, set: values });
}

const consumableColumns = {
  id: modelConsumables.id,
  manufacturer: modelConsumables.manufacturer,
  model: modelConsumables.model,
  modelKey: modelConsumables.modelKey,
  kind: modelConsumables.kind,
  itemLabel: modelConsumables.itemLabel,
};

export async function listConsumables(tx: DbOrTx) {
  const rows = await tx
    .select(consumableColumns)
    .from(modelConsumables)
    .orderBy(asc(modelConsumables.modelKey), asc(modelConsumables.kind), asc(modelConsumables.id));
  return rows.map((r) => ({ ...r, kind: r.kind as ConsumableKind }));
}

export async function findConsumable(tx: DbOrTx, id: string) {
  const [row] = await tx.select(consumableColumns).from(modelConsumables).where(eq(modelConsumables.id, id)).limit(1);
  return row ? { ...row, kind: row.kind as ConsumableKind } : null;
}

export type ConsumableValues = { manufacturer: string; model: string; modelKey: string; kind: ConsumableKind; itemLabel: string };

/** Inserts, or answers null when the model already has this kind (unique model_key + kind). */
export async function insertConsumable(tx: DbOrTx, values: ConsumableValues): Promise<string | null> {
  const [row] = await tx.insert(modelConsumables).values(values).onConflictDoNothing().returning({ id: modelConsumables.id });
  return row?.id ?? null;
}

export async function findConsumableIdByKey(tx: DbOrTx, modelKey: string, kind: ConsumableKind) {
  const [row] = await tx
    .select({ id: modelConsumables.id })
    .from(modelConsumables)
    .where(and(eq(modelConsumables.modelKey, modelKey), eq(modelConsumables.kind, kind)))
    .limit(1);
  return row?.id ?? null;
}

export async function updateConsumable(tx: DbOrTx, id: string, values: ConsumableValues) {
  await tx.update(modelConsumables).set(values).where(eq(modelConsumables.id, id));
}

export async function deleteConsumable(tx: DbOrTx, id: string): Promise<boolean> {
  const rows = await tx.delete(modelConsumables).where(eq(modelConsumables.id, id)).returning({ id: modelConsumables.id });
  return rows.length > 0;
}

export async function lockLot(tx: DbOrTx, batchId: string) {
  await tx.execute(sql`select id from mission_batches where id = ${batchId} for update`);
}

/** A lot's deadline as its day in France (YYYY-MM-DD), written by PostgreSQL like the visits' planned days. */
const deadlineDay = sql<string | null>`to_char(${missionBatches.deadline} at time zone 'Europe/Paris', 'YYYY-MM-DD')`;

export async function findLot(tx: DbOrTx, batchId: string) {
  const [lot] = await tx
    .select({ id: missionBatches.id, title: missionBatches.title, deadlineDay, isSystem: missionBatches.isSystem })
    .from(missionBatches)
    .where(eq(missionBatches.id, batchId))
    .limit(1);
  return lot ?? null;
}

const recruitColumns = {
  id: technicians.id,
  firstName: technicians.firstName,
  lastName: technicians.lastName,
  relayPoint: technicians.preferredRelayPoint,
};

/** The lot's recruited (or finished) technician with its relay point. */
export async function findLotRecruit(tx: DbOrTx, batchId: string) {
  const [row] = await tx
    .select(recruitColumns)
    .from(applications)
    .innerJoin(technicians, eq(technicians.id, applications.technicianId))
    .where(and(eq(applications.batchId, batchId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
    .limit(1);
  return row ?? null;
}

/** A lot and its recruited technician (null: nobody recruited, so no visit is planned or done). */
export interface LotWithRecruit {
  batchId: string;
  technicianId: string | null;
}

/** A visit still to do, with what it needs of its device; dates as written in SQL (days YYYY-MM-DD, in France). */
export interface PendingVisit {
  batchId: string;
  missionId: string;
  missionSerial: string | null;
  clientName: string | null;
  missionModel: string | null;
  /** The recruit's planned day, in France. */
  plannedVisitDay: string | null;
  deviceId: string | null;
  serialNumber: string | null;
  siteName: string | null;
  manufacturer: string | null;
  model: string | null;
  batteryExpiry: string | null;
  adultPadsExpiry: string | null;
  pediatricPadsPresent: boolean | null;
  pediatricPadsExpiry: string | null;
}

/**
 * The visits each lot's recruit has still to do, with their device: one statement for one lot (a lot's parts) or for
 * the 200 of Expéditions (2 000 visits at full scale). The lots and their recruits come in as two arrays: joined on
 * the applications instead, PostgreSQL hashed every recruit of the base (4 000) for 200 lots. Each device is read on
 * its primary key (`limit 1` keeps the lookup a lateral one: joined, the 2 000 visits were planned as a hash of all
 * 100 000 devices, decision 039). The planned day is written in SQL, in France, like the expiry dates, so Node reads
 * no instant.
 */
export async function listPendingVisits(tx: DbOrTx, lots: readonly LotWithRecruit[]): Promise<PendingVisit[]> {
  if (lots.length === 0) return [];
  const batchIds = lots.map((lot) => lot.batchId);
  const technicianIds = lots.map((lot) => lot.technicianId);
  const result = await tx.execute<PendingVisit & Record<string, unknown>>(sql`
    select m.batch_id as "batchId", m.id as "missionId", m.serial_number as "missionSerial", m.client_name as "clientName",
      m.defibrillator_model as "missionModel",
      to_char(tmd.planned_visit_date at time zone 'Europe/Paris', 'YYYY-MM-DD') as "plannedVisitDay",
      d.id as "deviceId", d.serial_number as "serialNumber", d.site_name as "siteName", d.manufacturer, d.model,
      d.battery_expiry as "batteryExpiry", d.adult_pads_expiry as "adultPadsExpiry",
      d.pediatric_pads_present as "pediatricPadsPresent", d.pediatric_pads_expiry as "pediatricPadsExpiry"
    from unnest(${sql.param(batchIds)}::uuid[], ${sql.param(technicianIds)}::uuid[]) as lot(batch_id, technician_id)
    join missions m on m.batch_id = lot.batch_id
    left join lateral (
      select id, serial_number, site_name, manufacturer, model, battery_expiry, adult_pads_expiry, pediatric_pads_present, pediatric_pads_expiry
      from devices where devices.id = m.device_id limit 1
    ) d on true
    left join technician_mission_data tmd on tmd.mission_id = m.id and tmd.technician_id = lot.technician_id
    where tmd.is_completed is not true
    order by m.batch_id, m.created_at, m.id`);
  return result.rows;
}

/**
 * The parcel created from the lot's proposal (a link to a cancelled parcel included: the caller decides). Its shipping
 * time as the answers write it (ISO text), as listLotsWithRecruit gives it.
 */
export async function findProposedShipment(tx: DbOrTx, batchId: string) {
  const [row] = await tx
    .select({ id: shipments.id, status: shipments.status, shippedDate: shipments.shippedDate })
    .from(lotPartShipments)
    .innerJoin(shipments, eq(shipments.id, lotPartShipments.shipmentId))
    .where(eq(lotPartShipments.batchId, batchId))
    .limit(1);
  return row ? { id: row.id, status: row.status as ShipmentStatus, shippedDate: row.shippedDate?.toISOString() ?? null } : null;
}

export async function hasShippedParcel(tx: DbOrTx, batchId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.batchId, batchId), inArray(shipments.status, ['in_transit', 'delivered'])))
    .limit(1);
  return Boolean(row);
}

export async function deleteProposedLink(tx: DbOrTx, batchId: string) {
  await tx.delete(lotPartShipments).where(eq(lotPartShipments.batchId, batchId));
}

export async function insertProposedLink(tx: DbOrTx, batchId: string, shipmentId: string) {
  await tx.insert(lotPartShipments).values({ batchId, shipmentId });
}

export async function insertShipmentParts(
  tx: DbOrTx,
  rows: { shipmentId: string; missionId: string; deviceId: string | null; kind: ConsumableKind; itemLabel: string }[],
) {
  if (rows.length > 0) await tx.insert(shipmentParts).values(rows);
}

/** A lot's kept figures for Expéditions (decision 060), with the version they are to be checked against. */
export interface KeptParts {
  batchId: string;
  version: number;
  keptVersion: number | null;
  keptKey: string | null;
  itemCount: number;
  toCheckCount: number;
  firstVisitDay: string | null;
}

const keptColumns = {
  batchId: lotPartsKept.batchId,
  version: lotPartsKept.version,
  keptVersion: lotPartsKept.keptVersion,
  keptKey: lotPartsKept.keptKey,
  itemCount: lotPartsKept.itemCount,
  toCheckCount: lotPartsKept.toCheckCount,
  firstVisitDay: lotPartsKept.firstVisitDay,
};

/** Which lots with a recruit to read for Expéditions' proposals. */
export interface LotsWithRecruitQuery {
  /** After this lot in the lots' order (a page's cursor). */
  after: { title: string; id: string } | null;
  /** These lots only (« Missions & Lots »). */
  batchIds: readonly string[] | null;
  limit: number;
  /** Today in France: part of the kept figures' key (a lot without visit date nor deadline is measured from it). */
  today: string;
}

/**
 * Réglages as the lot list reads them (the defaults while the admin has saved none), and the parts reference: what
 * every lot's figures are computed with besides the lot, the margin and each model's part. A change of either changes
 * the reference, so every lot is computed again. One row, worked out once for the statement (a few hundred
 * consumables); a read that computes no lot reads neither the consumables nor Réglages apart. `offset 0` keeps it a
 * row of its own: without it PostgreSQL merged the subquery into the statement and wrote the reference's md5 again
 * for every lot, in the filter and in the key (Expéditions' first page 0.57–0.84 → 0.32–0.53 ms: decision 074).
 */
const partsReference = sql`(select r.margin_days, r.ship_days, md5(r.margin_days::text || ':' || coalesce((select string_agg(model_key || '|' || kind
    || '|' || item_label, e'\\n' order by model_key, kind, id) from model_consumables), '')) as reference
  from (select coalesce((select expiry_margin_days from parts_settings where id = 1), ${DEFAULT_EXPIRY_MARGIN_DAYS}::int) as margin_days,
    coalesce((select ship_days_before_visit from parts_settings where id = 1), ${DEFAULT_SHIP_DAYS_BEFORE_VISIT}::int) as ship_days) r
  offset 0) parts_reference`;

/**
 * Active lots with a recruit whose parcel may be proposed (Expéditions), in title order. The lot's kept `has_recruit`
 * (« Recruté » or « Terminé », migration 0017) lets the title order be walked on mission_batches_recruited_title_idx;
 * the join keeps « Recruté ». Each lot comes with its recruit, whose visits to do listPendingVisits reads, with its name
 * and relay point (one recruit per lot: applications_one_recruit_per_batch_idx), with its kept figures (decision 060)
 * and its parcels (the one created from its proposal, and whether one is on its way or received), and with Réglages and
 * the parts reference: read apart, they were five more statements a page. A lot whose kept figures are current and
 * need nothing, and that has no live parcel, is left out here, so a page fills up with lots to show.
 */
export async function listLotsWithRecruit(tx: DbOrTx, { after, batchIds, limit, today }: LotsWithRecruitQuery) {
  const size = Math.trunc(limit);
  const shape = `parts lots with recruit${after ? ' after' : ''}${batchIds ? ' ids' : ''} ${size}`;
  const statement = preparedSql<LotWithRecruitRow>(tx, shape, () => lotsWithRecruitSql({ after: Boolean(after), batchIds: Boolean(batchIds), size }));
  const { rows } = await statement.execute({ today, afterTitle: after?.title, afterId: after?.id, batchIds });
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    deadlineDay: row.deadline_day,
    recruit: { id: row.recruit_id, firstName: row.recruit_first_name, lastName: row.recruit_last_name, relayPoint: row.recruit_relay_point },
    settings: { expiryMarginDays: row.margin_days, shipDaysBeforeVisit: row.ship_days },
    currentKey: row.current_key,
    kept:
      row.kept_batch_id === null
        ? null
        : ({
            batchId: row.kept_batch_id,
            version: Number(row.kept_row_version),
            keptVersion: row.kept_version === null ? null : Number(row.kept_version),
            keptKey: row.kept_key,
            itemCount: row.kept_item_count,
            toCheckCount: row.kept_to_check_count,
            firstVisitDay: row.kept_first_visit_day,
          } satisfies KeptParts),
    proposed:
      row.proposed_id === null
        ? null
        : { id: row.proposed_id, status: row.proposed_status as ShipmentStatus, shippedDate: row.proposed_shipped_at },
    shipped: row.shipped,
  }));
}

/**
 * A row of listLotsWithRecruit's statement, as the driver gives it: the lot, its recruit, Réglages, its kept figures and
 * its parcels in flat columns. The versions are bigints (a string from node-postgres); the parcel's shipping time is
 * written as the answers' ISO text by PostgreSQL, so both databases give the same.
 */
type LotWithRecruitRow = {
  id: string;
  title: string;
  deadline_day: string | null;
  recruit_id: string;
  recruit_first_name: string;
  recruit_last_name: string;
  recruit_relay_point: string | null;
  margin_days: number;
  ship_days: number;
  current_key: string;
  kept_batch_id: string | null;
  kept_row_version: string | number | null;
  kept_version: string | number | null;
  kept_key: string | null;
  kept_item_count: number;
  kept_to_check_count: number;
  kept_first_visit_day: string | null;
  proposed_id: string | null;
  proposed_status: string | null;
  proposed_shipped_at: string | null;
  shipped: boolean;
};

/**
 * listLotsWithRecruit's statement for one shape (a cursor or not, a list of lots or not, the page's size), written in
 * SQL and rendered once (db/prepared-queries.ts), its rows read as the driver gives them: built with the query
 * builder, the statement was built once too, but Drizzle's mapping of its twenty columns into nested objects was a
 * tenth of Expéditions' Node time (decision 083).
 */
function lotsWithRecruitSql(shape: { after: boolean; batchIds: boolean; size: number }): SQL {
  // The key of the figures this read would keep for the lot (parts.service.ts compares and keeps it as it is).
  const currentKey = sql`${sql.placeholder('today')}::text || '|' || ${applications.technicianId}::text || '|' || coalesce(${deadlineDay}, '') || '|' || parts_reference.reference`;
  const mayPropose = sql`(${lotPartsKept.batchId} is null
    or ${lotPartsKept.keptVersion} is distinct from ${lotPartsKept.version}
    or ${lotPartsKept.keptKey} is distinct from ${currentKey}
    or ${lotPartsKept.itemCount} > 0 or ${lotPartsKept.toCheckCount} > 0
    or ${shipments.status} <> 'cancelled')`;
  const conditions = [
    lotsWithRecruit.lotIsActiveWithRecruit,
    mayPropose,
    ...(shape.after ? [sql`(${missionBatches.title}, ${missionBatches.id}) > (${sql.placeholder('afterTitle')}::text, ${sql.placeholder('afterId')}::uuid)`] : []),
    ...(shape.batchIds ? [sql`${missionBatches.id} = any(${sql.placeholder('batchIds')}::uuid[])`] : []),
  ];
  // The lot's parcels: the one created from its proposal (one link per lot), and whether one is on its way (a scalar
  // subquery looked up on shipments_batch_idx for each lot of the page: written `exists`, PostgreSQL hashed every parcel
  // on its way of the base, 10 000 at full scale, 5 ms, for 21 lots). The page's size is in the text, for the reason
  // pageSql (lib/pagination.ts) gives: as a parameter, PostgreSQL priced the generic plan for a tenth of the lots and
  // planned every call anew (2.5 ms a call, 0.9 ms on its generic plan). A page asks for at most 51 sizes.
  return sql`
    select ${missionBatches.id} as id, ${missionBatches.title} as title, ${deadlineDay} as deadline_day,
      ${technicians.id} as recruit_id, ${technicians.firstName} as recruit_first_name, ${technicians.lastName} as recruit_last_name,
      ${technicians.preferredRelayPoint} as recruit_relay_point,
      parts_reference.margin_days, parts_reference.ship_days, ${currentKey} as current_key,
      ${lotPartsKept.batchId} as kept_batch_id, ${lotPartsKept.version} as kept_row_version, ${lotPartsKept.keptVersion} as kept_version,
      ${lotPartsKept.keptKey} as kept_key, ${lotPartsKept.itemCount} as kept_item_count, ${lotPartsKept.toCheckCount} as kept_to_check_count,
      ${lotPartsKept.firstVisitDay} as kept_first_visit_day,
      ${shipments.id} as proposed_id, ${shipments.status} as proposed_status, maillon_json_time(${shipments.shippedDate}) as proposed_shipped_at,
      coalesce((select true from shipments s where s.batch_id = ${missionBatches.id} and s.status in ('in_transit', 'delivered') limit 1), false) as shipped
    from ${missionBatches}
    join ${applications} on ${lotsWithRecruit.recruitOfLot}
    join ${technicians} on ${technicians.id} = ${applications.technicianId}
    join ${partsReference} on true
    left join ${lotPartsKept} on ${lotPartsKept.batchId} = ${missionBatches.id}
    left join ${lotPartShipments} on ${lotPartShipments.batchId} = ${missionBatches.id}
    left join ${shipments} on ${shipments.id} = ${lotPartShipments.shipmentId}
    where ${sql.join(conditions, sql` and `)}
    order by ${sql.join([...lotsWithRecruit.byTitle], sql`, `)}
    limit ${literalLimit(shape.size)}`;
}

/** Each lot's kept row on its primary key (`= any` over 200 ids had PostgreSQL filter the whole table instead). */
export async function readKeptParts(tx: DbOrTx, batchIds: readonly string[]): Promise<KeptParts[]> {
  if (batchIds.length === 0) return [];
  return tx
    .select(keptColumns)
    .from(sql`unnest(${sql.param(batchIds)}::uuid[]) as lot(id)`)
    .innerJoin(lotPartsKept, sql`${lotPartsKept.batchId} = lot.id`);
}

/**
 * A row for each lot that has none yet, before its version is read: from then on, a write on the lot raises it. Should a
 * write's trigger be inserting the same row, this waits for its transaction, then reads its version.
 */
export async function ensureKeptParts(tx: DbOrTx, batchIds: readonly string[]) {
  if (batchIds.length === 0) return;
  await tx.execute(sql`
    insert into lot_parts_kept (batch_id)
    select l.id from unnest(${sql.param([...batchIds].sort())}::uuid[]) l(id)
    where exists (select 1 from mission_batches b where b.id = l.id)
    order by l.id
    on conflict (batch_id) do nothing`);
}

/** Figures computed from what was read after `version` was: the version moved since (a write) keeps nothing. */
export interface PartsToKeep {
  batchId: string;
  version: number;
  key: string;
  itemCount: number;
  toCheckCount: number;
  firstVisitDay: string | null;
}

/**
 * Keeps the figures of each lot whose version is still the one they were computed at. A lot locked by a write in
 * progress is skipped without waiting: its trigger is raising the version, which would refuse them anyway (and a read
 * never waits on a write, nor locks lots in an order that could cross one).
 */
export async function keepParts(tx: DbOrTx, rows: readonly PartsToKeep[]) {
  if (rows.length === 0) return;
  const column = <K extends keyof PartsToKeep>(key: K) => sql.param(rows.map((row) => row[key]));
  await tx.execute(sql`
    with free as (
      select k.batch_id from unnest(${column('batchId')}::uuid[]) as lot(id) join lot_parts_kept k on k.batch_id = lot.id
      order by k.batch_id for update of k skip locked
    )
    update lot_parts_kept k
    set kept_version = v.version, kept_key = v.key, item_count = v.item_count, to_check_count = v.to_check_count,
      first_visit_day = v.first_visit_day
    from unnest(${column('batchId')}::uuid[], ${column('version')}::bigint[], ${column('key')}::text[], ${column('itemCount')}::int[],
      ${column('toCheckCount')}::int[], ${column('firstVisitDay')}::text[]) as v(batch_id, version, key, item_count, to_check_count, first_visit_day)
    where k.batch_id = v.batch_id and k.version = v.version and k.batch_id in (select batch_id from free)`);
}

/** Parts of the lot's live parcels (not cancelled), with the device they are for and the visit's complete report. */
export async function listLotShipmentParts(tx: DbOrTx, batchId: string) {
  return tx
    .select({
      shipmentId: shipmentParts.shipmentId,
      shipmentStatus: shipments.status,
      missionId: shipmentParts.missionId,
      deviceId: shipmentParts.deviceId,
      kind: shipmentParts.kind,
      itemLabel: shipmentParts.itemLabel,
      serialNumber: sql<string | null>`coalesce(${devices.serialNumber}, ${missions.serialNumber})`,
      siteName: sql<string | null>`coalesce(${devices.siteName}, ${missions.clientName})`,
    })
    .from(shipmentParts)
    .innerJoin(shipments, eq(shipments.id, shipmentParts.shipmentId))
    .innerJoin(missions, eq(missions.id, shipmentParts.missionId))
    .leftJoin(devices, eq(devices.id, shipmentParts.deviceId))
    .where(and(eq(shipments.batchId, batchId), ne(shipments.status, 'cancelled')))
    .orderBy(asc(shipmentParts.createdAt), asc(shipmentParts.id));
}

/** Complete reports (at least one version) of the given visits: what each replaced. */
export async function listCompleteReports(tx: DbOrTx, missionIds: string[]) {
  if (missionIds.length === 0) return [];
  return tx
    .select({ missionId: visitReports.missionId, visitedAt: visitReports.visitedAt, consumablesReplaced: visitReports.consumablesReplaced })
    .from(visitReports)
    .where(and(inArray(visitReports.missionId, missionIds), sql`${visitReports.version} > 0`, isNotNull(visitReports.visitedAt)));
}

/** Parts coming to a technician for a lot, from its live parcels (the technician's Recruté view). */
export async function listTechnicianLotParts(tx: DbOrTx, batchId: string, technicianId: string) {
  return tx
    .select({
      missionId: shipmentParts.missionId,
      kind: shipmentParts.kind,
      itemLabel: shipmentParts.itemLabel,
      shipmentId: shipments.id,
      shipmentStatus: shipments.status,
    })
    .from(shipmentParts)
    .innerJoin(shipments, eq(shipments.id, shipmentParts.shipmentId))
    .where(and(eq(shipments.batchId, batchId), eq(shipments.technicianId, technicianId), ne(shipments.status, 'cancelled')))
    .orderBy(asc(shipmentParts.kind), asc(shipmentParts.id));
}

export async function findApplication(tx: DbOrTx, applicationId: string) {
  const [row] = await tx
    .select({ batchId: applications.batchId, technicianId: applications.technicianId, status: applications.status })
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1);
  return row ?? null;
}

export async function listVisitParts(tx: DbOrTx, missionId: string, technicianId: string) {
  return tx
    .select({ itemLabel: shipmentParts.itemLabel })
    .from(shipmentParts)
    .innerJoin(shipments, eq(shipments.id, shipmentParts.shipmentId))
    .where(and(eq(shipmentParts.missionId, missionId), eq(shipments.technicianId, technicianId), ne(shipments.status, 'cancelled')))
    .orderBy(asc(shipmentParts.kind), asc(shipmentParts.id));
}
