import { eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { CasingCache } from 'drizzle-orm/casing';
import { eurosToCents } from '@maillon/common/format';
import type { MissionStatus } from '@maillon/common/enums';
import { VISIT_TYPES_MISSION_EDIT } from '@maillon/common/reference-lists';
import { type CreateMissionRequest, type Mission, type UpdateMissionRequest } from '@maillon/common/schemas/admin-missions';
import type { Db, DbOrTx } from '../../db/client';
import { missionBatches, missions } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { pageSql, pageText, searchPageText, whereAll, type SearchPageText } from '../../lib/pagination';
import { linkMissionRowToDevice, linkMissionToDevice, type MissionDeviceFields } from '../devices/devices.service';
import { missionApproxColumns, refreshLotsGeometry } from '../../lib/positions';
import { missionsCountSql } from '../../lib/row-counts';
import { getRecruitedTechnicianId, recomputeBatchFigures, saveMissionProgress } from '../lifecycle/lifecycle.service';
import { missionColumns, missionJsonSql, toMission } from './admin-missions.mapper';
import { searchedTable } from '../../lib/substring-search';

const MISSION_NOT_FOUND = 'Mission introuvable';
const LOT_NOT_FOUND = 'Lot introuvable';
const COMPLETED_LOT = 'Impossible de modifier les missions d’un lot terminé';

export interface MissionListFilters {
  search?: string | undefined;
  batchId?: string | undefined;
  /** "À trier": missions without a lot that are still draft or active. */
  unbatched?: boolean | undefined;
  status?: MissionStatus | undefined;
  limit: number;
  offset: number;
}


const MISSION_ORDER = sql.raw('missions.created_at desc, missions.id desc');

/**
 * The admin list: one statement answers the page (one JSON value, missionJsonSql) and its total. The page is the JSON
 * text the route sends (decision 049). Without a search the page walks an index in the (created_at, id) order and
 * stops after `limit` rows; the total is read from the counts the database keeps (decision 027), or counted over
 * missions_batch_idx within a lot. A search counts the missions it finds (trigram index) up to TOTAL_CAP + 1 and sorts
 * them for the page; past the cap, its page walks the (created_at, id) order with the search as a filter
 * (searchPageText, decision 042).
 */
export async function listMissions(db: Db, filters: MissionListFilters): Promise<SearchPageText> {
  const others: SQL[] = [];
  if (filters.batchId) others.push(sql`${missions.batchId} = ${filters.batchId}`);
  if (filters.unbatched) {
    others.push(sql`${missions.batchId} is null`);
    if (!filters.status) others.push(sql`${missions.status} in ('draft', 'active')`);
  }
  if (filters.status) others.push(sql`${missions.status} = ${filters.status}`);
  const page = pageSql(filters.limit, filters.offset);
  // The page under `conditions`, walking the (created_at, id) order, as one JSON value.
  const pageJson = (conditions: SQL[]) =>
    sql`coalesce((select json_agg(${missionJsonSql} order by ${MISSION_ORDER})
      from (select * from missions ${whereAll(conditions)} order by ${MISSION_ORDER} ${page}) missions
      left join mission_batches b on b.id = missions.batch_id), '[]')`;
  const { search } = filters;
  if (search) return searchPageText(db, { ...searchedTable('missions', search, others), pageJson }, filters);
  const total = filters.batchId ? sql`(select count(*)::int from missions ${whereAll(others)})` : missionsCountSql(filters);
  return pageText(db, total, pageJson(others));
}

export async function getMission(db: DbOrTx, missionId: string): Promise<Mission> {
  const [row] = await db
    .select(missionColumns)
    .from(missions)
    .leftJoin(missionBatches, eq(missionBatches.id, missions.batchId))
    .where(eq(missions.id, missionId))
    .limit(1);
  if (!row) throw notFound(MISSION_NOT_FOUND);
  return toMission(row);
}

interface LockedLot {
  id: string;
  status: string;
  isSystem: boolean;
}

/** Locks lots in id order (no deadlock between two moves) and returns them. */
async function lockLots(tx: DbOrTx, ids: (string | null)[]): Promise<Map<string, LockedLot>> {
  const unique = [...new Set(ids.filter((id): id is string => Boolean(id)))].sort();
  const lots = new Map<string, LockedLot>();
  for (const id of unique) {
    await tx.execute(sql`select id from mission_batches where id = ${id} for update`);
    const [lot] = await tx
      .select({ id: missionBatches.id, status: missionBatches.status, isSystem: missionBatches.isSystem })
      .from(missionBatches)
      .where(eq(missionBatches.id, id))
      .limit(1);
    if (lot) lots.set(id, lot);
  }
  return lots;
}

/** A lot missions may be put into: exists, not finished, not the system lot (which only receives cancelled devices). */
function assertTargetLot(lot: LockedLot | undefined): void {
  if (!lot) throw notFound(LOT_NOT_FOUND);
  if (lot.isSystem) throw new AppError('INVALID_TRANSITION', 'Le lot système reçoit seulement les missions annulées');
  if (lot.status === 'completed') throw new AppError('INVALID_TRANSITION', 'Ce lot est terminé');
}

/**
 * Reads the missions, locks their lots (and the target) in id order, then the missions themselves; refuses
 * missions of finished lots. Returns the locked missions.
 */
async function lockMissionsWithLots(tx: DbOrTx, missionIds: string[], targetBatchId: string | null = null) {
  const current = await tx.select({ id: missions.id, batchId: missions.batchId }).from(missions).where(inArray(missions.id, missionIds));
  if (current.length !== missionIds.length) throw notFound(MISSION_NOT_FOUND);
  const lots = await lockLots(tx, [...current.map((m) => m.batchId), targetBatchId]);
  await tx.execute(sql`select id from missions where id in ${missionIds} for update`);
  const locked = await tx
    .select({ id: missions.id, batchId: missions.batchId, status: missions.status, title: missions.title })
    .from(missions)
    .where(inArray(missions.id, missionIds));
  if (locked.length !== missionIds.length) throw notFound(MISSION_NOT_FOUND);
  const before = new Map(current.map((m) => [m.id, m.batchId]));
  if (locked.some((m) => before.get(m.id) !== m.batchId)) {
    throw new AppError('CONFLICT', 'Les missions ont changé entre-temps, veuillez réessayer');
  }
  for (const mission of locked) {
    const lot = mission.batchId ? lots.get(mission.batchId) : undefined;
    if (lot?.status === 'completed') throw new AppError('INVALID_TRANSITION', COMPLETED_LOT);
  }
  return { locked, lots };
}

async function recomputeLots(tx: DbOrTx, ids: (string | null)[]): Promise<void> {
  for (const id of new Set(ids)) if (id) await recomputeBatchFigures(tx, id);
}

/** POST /api/missions: a draft (or active) mission, optionally directly in an open lot. */
export async function createMission(db: Db, { body, actorUserId }: { body: CreateMissionRequest; actorUserId: string }): Promise<Mission> {
  return db.transaction(async (tx) => {
    if (body.batchId) {
      const lots = await lockLots(tx, [body.batchId]);
      assertTargetLot(lots.get(body.batchId));
    }
    const { budget, ...rest } = body;
    const [created] = await tx
      .insert(missions)
      .values({ ...rest, budgetCents: eurosToCents(budget), ...missionApproxColumns(rest) })
      .returning({ id: missions.id });
    await linkMissionToDevice(tx, created!.id);
    if (body.batchId) await recomputeBatchFigures(tx, body.batchId);
    await audit(tx, { actorUserId, action: 'mission.create', entity: 'mission', entityId: created!.id, after: { title: body.title, batchId: body.batchId } });
    return getMission(tx, created!.id);
  });
}

/** What the edit's statement returns: the fields the mission's device comes from, and the lot's geometry to follow. */
type EditedMission = MissionDeviceFields & {
  batchId: string | null;
  /** The mission after, as the answer's JSON (missionJsonSql). */
  after: string;
  /** The site moved: its approximate or exact position changed. */
  moved: boolean;
};

/** The database's names of the columns (the schema's keys in snake_case: db/client.ts). */
const columnNames = new CasingCache('snake_case');
const missionTableColumns = getTableColumns(missions);

/** `column = value, …` for an update of `missions`, the values mapped as drizzle maps them (undefined: left out). */
function missionAssignments(values: Partial<typeof missions.$inferInsert>): SQL {
  const assignments = Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const column = missionTableColumns[key as keyof typeof missionTableColumns];
      return sql`${sql.identifier(columnNames.getColumnCasing(column))} = ${sql.param(value, column)}`;
    });
  return sql.join(assignments, sql`, `);
}

/**
 * Edit mission (spec 02 §5); the visit type comes from the mission-edit list, or stays what it was. One statement
 * locks the mission, updates it and writes the journal line with the mission before and after as PostgreSQL writes it
 * for the answer (missionJsonSql, decision 049); then its device (by serial number), and the lot's geometry when the
 * site moved. Four round trips with `begin` and `commit` instead of six (decision 088): under load each one waits its
 * turn on the event loop and in PostgreSQL.
 */
export async function updateMission(
  db: Db,
  { missionId, body, actorUserId }: { missionId: string; body: UpdateMissionRequest; actorUserId: string },
): Promise<Mission> {
  const { address, title, description, ...visit } = body;
  const values = {
    ...visit,
    location: address,
    ...missionApproxColumns({ location: address, postalCode: visit.postalCode, city: visit.city, department: visit.department }),
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    updatedAt: new Date(),
  };
  const listedVisitType = sql.raw(VISIT_TYPES_MISSION_EDIT.includes(body.visitType) ? 'true' : 'false');
  return db.transaction(async (tx) => {
    const result = await tx.execute<EditedMission>(sql`
      with old as (
        select missions.*, to_json(${missionJsonSql})::text as before_json
        from missions left join mission_batches b on b.id = missions.batch_id
        where missions.id = ${missionId}
        for update of missions
      ),
      edited as (
        update missions set ${missionAssignments(values)}
        from old left join mission_batches b on b.id = old.batch_id
        where missions.id = old.id and (${listedVisitType} or old.visit_type = ${body.visitType})
        returning missions.id, missions.device_id as "deviceId", missions.serial_number as "serialNumber",
          missions.defibrillator_model as "defibrillatorModel", missions.client_name as "clientName", missions.location,
          missions.postal_code as "postalCode", missions.city, missions.latitude, missions.longitude,
          missions.tel_site as "telSite", missions.email_site as "emailSite", missions.batch_id as "batchId",
          to_json(${missionJsonSql})::text as after,
          (old.approx_latitude, old.approx_longitude, old.latitude, old.longitude)
            is distinct from (missions.approx_latitude, missions.approx_longitude, missions.latitude, missions.longitude) as moved
      ),
      journal as (
        insert into audit_log (actor_user_id, action, entity, entity_id, before, after)
        select ${actorUserId}::uuid, 'mission.update', 'mission', edited.id::text, old.before_json, edited.after
        from edited join old on old.id = edited.id
      )
      select * from edited`);
    const [edited] = result.rows;
    if (!edited) {
      const [exists] = await tx.select({ id: missions.id }).from(missions).where(eq(missions.id, missionId));
      if (!exists) throw notFound(MISSION_NOT_FOUND);
      throw new AppError('VALIDATION_ERROR', 'Veuillez choisir un type de visite de la liste', {
        visitType: 'Veuillez choisir un type de visite de la liste',
      });
    }
    const { after, moved, batchId, ...device } = edited;
    await linkMissionRowToDevice(tx, device);
    // When the site moved, its lot's geometry follows in the same transaction (an edit of the observations, the
    // contact or the serial number leaves the lot as it is: no rewrite of its row, its list JSON and its sites).
    if (moved) await refreshLotsGeometry(tx, [batchId]);
    return JSON.parse(after) as Mission;
  });
}

/** Publish: a draft becomes active; publishing an active mission again changes nothing. */
export async function publishMission(db: Db, { missionId, actorUserId }: { missionId: string; actorUserId: string }): Promise<Mission> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from missions where id = ${missionId} for update`);
    const mission = await getMission(tx, missionId);
    if (mission.status === 'active') return mission;
    if (mission.status !== 'draft') throw new AppError('INVALID_TRANSITION', 'Seule une mission brouillon peut être publiée');
    await tx.update(missions).set({ status: 'active', updatedAt: new Date() }).where(eq(missions.id, missionId));
    await audit(tx, { actorUserId, action: 'mission.publish', entity: 'mission', entityId: missionId });
    return getMission(tx, missionId);
  });
}

/** Deletes missions (one or many) and recomputes the figures of the lots they were in, in the same transaction. */
export async function deleteMissions(db: Db, { missionIds, actorUserId }: { missionIds: string[]; actorUserId: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const { locked } = await lockMissionsWithLots(tx, missionIds);
    await tx.delete(missions).where(inArray(missions.id, missionIds));
    await recomputeLots(tx, locked.map((m) => m.batchId));
    await audit(tx, {
      actorUserId,
      action: 'mission.delete',
      entity: 'mission',
      entityId: missionIds.length === 1 ? missionIds[0] : null,
      before: locked.map((m) => ({ id: m.id, title: m.title, batchId: m.batchId })),
    });
    return locked.length;
  });
}

/**
 * Organiser: moves missions into an open lot, or back to "À trier" (null). A cancelled mission leaving the
 * system lot becomes active again. The old and new lots' figures are recomputed in the same transaction.
 */
export async function moveMissions(
  db: Db,
  { missionIds, batchId, actorUserId }: { missionIds: string[]; batchId: string | null; actorUserId: string },
): Promise<number> {
  return db.transaction(async (tx) => {
    const { locked, lots } = await lockMissionsWithLots(tx, missionIds, batchId);
    if (batchId) assertTargetLot(lots.get(batchId));
    if (locked.some((m) => m.status === 'completed')) {
      throw new AppError('INVALID_TRANSITION', 'Une mission terminée ne peut pas être déplacée');
    }
    await tx
      .update(missions)
      .set({ batchId, status: sql`case when ${missions.status} = 'cancelled' then 'active' else ${missions.status} end`, updatedAt: new Date() })
      .where(inArray(missions.id, missionIds));
    await recomputeLots(tx, [...locked.map((m) => m.batchId), batchId]);
    await audit(tx, {
      actorUserId,
      action: 'mission.move',
      entity: 'mission',
      entityId: missionIds.length === 1 ? missionIds[0] : null,
      before: locked.map((m) => ({ id: m.id, batchId: m.batchId })),
      after: { batchId },
    });
    return locked.length;
  });
}

/**
 * Admin completes a mission. When its lot has a recruited technician, the device is marked done for them so the
 * lot figures and the invoice follow. Idempotent.
 */
export async function completeMission(db: Db, { missionId, actorUserId }: { missionId: string; actorUserId: string }): Promise<Mission> {
  return db.transaction(async (tx) => {
    const { locked, lots } = await lockMissionsWithLots(tx, [missionId]);
    const mission = locked[0]!;
    if (mission.status === 'completed') return getMission(tx, missionId);
    if (mission.status === 'cancelled') throw new AppError('INVALID_TRANSITION', 'Une mission annulée ne peut pas être terminée');
    await tx.update(missions).set({ status: 'completed', updatedAt: new Date() }).where(eq(missions.id, missionId));
    const lot = mission.batchId ? lots.get(mission.batchId) : undefined;
    if (lot && !lot.isSystem) {
      const technicianId = await getRecruitedTechnicianId(tx, lot.id);
      if (technicianId) await saveMissionProgress(tx, { missionId, technicianId, patch: { isCompleted: true } });
    }
    await audit(tx, { actorUserId, action: 'mission.complete', entity: 'mission', entityId: missionId });
    return getMission(tx, missionId);
  });
}

