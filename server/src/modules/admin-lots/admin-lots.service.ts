import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { centsToEuros, eurosToCents } from '@maillon/common/format';
import {
  lotDeadlineToDate,
  type AdminBatch,
  type CreateBatchRequest,
  type UpdateBatchRequest,
} from '@maillon/common/schemas/admin-lots';
import { DEFAULT_LOT_DESCRIPTION } from '@maillon/common/constants';
import { RECRUITED_APPLICATION_STATUSES } from '@maillon/common/enums';
import type { Db, DbOrTx } from '../../db/client';
import { applications, missionBatches, missions, RECRUITED_STATUSES_SQL, technicians } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { eurosSql, jsonRowSql, pageSql, pageText, searchPageText, whereAll, type SearchPageText } from '../../lib/pagination';
import { searchedLots } from '../../lib/substring-search';
import { lotsCountSql } from '../../lib/row-counts';
import { completeBatch, ensureSystemLot, recomputeBatchFigures } from '../lifecycle/lifecycle.service';

const LOT_NOT_FOUND = 'Lot introuvable';
const SYSTEM_LOT_LOCKED = 'Le lot système est géré automatiquement : il ne peut être ni modifié, ni rendu visible, ni supprimé';

/**
 * A lot with what the admin cards show. The correlated subqueries name `mission_batches.id` literally so they bind
 * to the outer lot (see the Drizzle note in the brief).
 */
const batchColumns = {
  id: missionBatches.id,
  title: missionBatches.title,
  description: missionBatches.description,
  priceCents: missionBatches.priceCents,
  departments: missionBatches.departments,
  tags: missionBatches.tags,
  deadline: missionBatches.deadline,
  visibility: missionBatches.visibility,
  status: missionBatches.status,
  isSystem: missionBatches.isSystem,
  defibrillatorsSum: missionBatches.defibrillatorsSum,
  defibrillatorsDone: missionBatches.defibrillatorsDone,
  amountPerDefibCents: missionBatches.amountPerDefibCents,
  createdAt: missionBatches.createdAt,
  applicationCount: sql<number>`(select count(*) from applications a where a.batch_id = mission_batches.id)::int`,
  pendingApplicationCount: sql<number>`(select count(*) from applications a where a.batch_id = mission_batches.id and a.status in ('En attente', 'pending'))::int`,
  hasShipments: sql<boolean>`exists (select 1 from shipments s where s.batch_id = mission_batches.id)`,
  recruitedTechnicianId: technicians.id,
  recruitedFirstName: technicians.firstName,
  recruitedLastName: technicians.lastName,
  recruitedCompanyName: technicians.companyName,
};

type BatchRow = {
  id: string;
  title: string;
  description: string | null;
  priceCents: number;
  departments: string[];
  tags: string[];
  deadline: Date | null;
  visibility: string;
  status: string;
  isSystem: boolean;
  defibrillatorsSum: number;
  defibrillatorsDone: number;
  amountPerDefibCents: number;
  createdAt: Date;
  applicationCount: number;
  pendingApplicationCount: number;
  hasShipments: boolean;
  recruitedTechnicianId: string | null;
  recruitedFirstName: string | null;
  recruitedLastName: string | null;
  recruitedCompanyName: string | null;
};

function toAdminBatch(row: BatchRow): AdminBatch {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    price: centsToEuros(row.priceCents),
    departments: row.departments,
    tags: row.tags,
    deadline: row.deadline ? row.deadline.toISOString() : null,
    visibility: row.visibility as AdminBatch['visibility'],
    status: row.status as AdminBatch['status'],
    isSystem: row.isSystem,
    defibrillatorsSum: row.defibrillatorsSum,
    defibrillatorsDone: row.defibrillatorsDone,
    amountPerDefib: centsToEuros(row.amountPerDefibCents),
    applicationCount: Number(row.applicationCount),
    pendingApplicationCount: Number(row.pendingApplicationCount),
    recruitedTechnician: row.recruitedTechnicianId
      ? { id: row.recruitedTechnicianId, firstName: row.recruitedFirstName ?? '', lastName: row.recruitedLastName ?? '', companyName: row.recruitedCompanyName }
      : null,
    hasShipments: Boolean(row.hasShipments),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Lots joined with their recruited (or finished) application's technician, if any (at most one per lot). */
function selectBatches(db: DbOrTx) {
  return db
    .select(batchColumns)
    .from(missionBatches)
    .leftJoin(applications, and(eq(applications.batchId, missionBatches.id), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])))
    .leftJoin(technicians, eq(technicians.id, applications.technicianId));
}

/**
 * What the admin cards show of a lot `b` with its recruit `t`, as the answer's JSON object, written by PostgreSQL with
 * the keys of adminBatchSchema and the values toAdminBatch gives (the euros as `centsToEuros`, the times as
 * `toISOString`: maillon_json_time). The number of applications is the one the lot keeps (migration 0017); the pending
 * ones and the shipments are read on their indexes (applications_batch_idx, shipments_batch_idx). The active lots' page
 * is sent as PostgreSQL wrote it (decision 049); `admin-lots-list.test.ts` compares each object with getBatch's and parses
 * the page with `adminBatchSchema.strict()`.
 */
const batchFields: Record<string, string> = {
  id: 'b.id',
  title: 'b.title',
  description: 'b.description',
  price: eurosSql('b.price_cents'),
  departments: 'b.departments',
  tags: 'b.tags',
  deadline: 'maillon_json_time(b.deadline)',
  visibility: 'b.visibility',
  status: 'b.status',
  isSystem: 'b.is_system',
  defibrillatorsSum: 'b.defibrillators_sum',
  defibrillatorsDone: 'b.defibrillators_done',
  amountPerDefib: eurosSql('b.amount_per_defib_cents'),
  applicationCount: 'b.application_count',
  pendingApplicationCount: `(select count(*)::int from applications a where a.batch_id = b.id and a.status in ('En attente', 'pending'))`,
  recruitedTechnician: `case when t.id is not null
    then json_build_object('id', t.id, 'firstName', coalesce(t.first_name, ''), 'lastName', coalesce(t.last_name, ''), 'companyName', t.company_name) end`,
  hasShipments: 'exists (select 1 from shipments s where s.batch_id = b.id)',
  createdAt: 'maillon_json_time(b.created_at)',
};
const batchJsonSql = jsonRowSql(batchFields);

/**
 * A completed lot `b` (completedBatchSchema): the lot as above and its missions by title, as the « Terminés » sub-tab
 * shows them: the JSON the lot keeps of them (`missions_json`, kept by the missions' triggers: decision 065; read from
 * the missions in the same statement until then, decision 050).
 */
const completedBatchJsonSql = jsonRowSql({ ...batchFields, missions: 'b.missions_json' });

/**
 * A page of lots of one status (the system lot left out), newest first, and its total, the page as JSON text (`item`).
 * Without a search, one statement: the page walks mission_batches_status_created_idx (status and `not is_system` written
 * as literals, so a generic plan still matches the partial index) and the total is the count the database keeps
 * (row_counts, decision 027). A search looks in the lot's own text (title, description) and in the text it keeps of its
 * missions (decisions 054, 055), each on its trigram index: counted up to TOTAL_CAP + 1, past which the page walks the
 * order with the search as a filter (searchPageText, decision 042).
 */
async function listBatchesWhere(
  db: Db,
  { status, search, limit, offset }: { status: 'active' | 'completed'; search?: string | undefined; limit: number; offset: number },
  item: SQL,
): Promise<SearchPageText> {
  const others = [sql.raw(`${status === 'active' ? "status = 'active'" : "status = 'completed'"} and not is_system`)];
  const pageJson = (conditions: SQL[]) => sql`coalesce((select json_agg(${item} order by b.created_at desc, b.id desc)
      from (select * from mission_batches ${whereAll(conditions)} order by created_at desc, id desc ${pageSql(limit, offset)}) b
      left join applications r on r.batch_id = b.id and r.status in (${sql.raw(RECRUITED_STATUSES_SQL)})
      left join technicians t on t.id = r.technician_id), '[]')`;
  if (search) return searchPageText(db, { ...searchedLots(search, others), pageJson }, { limit, offset });
  return pageText(db, lotsCountSql(status), pageJson(others));
}

/** Active lots (not the system lot), newest first. */
export async function listActiveBatches(
  db: Db,
  { search, limit, offset }: { search?: string | undefined; limit: number; offset: number },
): Promise<SearchPageText> {
  return listBatchesWhere(db, { status: 'active', search, limit, offset }, batchJsonSql);
}

/** Completed lots with their missions and recruited technician (the Terminés sub-tab), as the JSON text sent. */
export async function listCompletedBatches(
  db: Db,
  { search, limit, offset }: { search?: string | undefined; limit: number; offset: number },
): Promise<SearchPageText> {
  return listBatchesWhere(db, { status: 'completed', search, limit, offset }, completedBatchJsonSql);
}

export async function getBatch(db: DbOrTx, batchId: string): Promise<AdminBatch> {
  const [row] = await selectBatches(db).where(eq(missionBatches.id, batchId)).limit(1);
  if (!row) throw notFound(LOT_NOT_FOUND);
  return toAdminBatch(row);
}

/** The system lot "Défibrillateurs de missions annulées", created on first need. */
export async function getSystemBatch(db: Db): Promise<AdminBatch> {
  const id = await db.transaction((tx) => ensureSystemLot(tx));
  return getBatch(db, id);
}

async function lockBatch(tx: DbOrTx, batchId: string) {
  await tx.execute(sql`select id from mission_batches where id = ${batchId} for update`);
  const [lot] = await tx
    .select({ id: missionBatches.id, status: missionBatches.status, isSystem: missionBatches.isSystem, title: missionBatches.title })
    .from(missionBatches)
    .where(eq(missionBatches.id, batchId))
    .limit(1);
  if (!lot) throw notFound(LOT_NOT_FOUND);
  return lot;
}

function lotValues(body: CreateBatchRequest) {
  return {
    title: body.title,
    description: body.description ?? DEFAULT_LOT_DESCRIPTION,
    priceCents: eurosToCents(body.price),
    departments: body.departments,
    tags: body.tags,
    deadline: body.deadline ? lotDeadlineToDate(body.deadline) : null,
  };
}

/** Créer un lot: invisible by default (spec 02 §9). */
export async function createBatch(db: Db, { body, actorUserId }: { body: CreateBatchRequest; actorUserId: string }): Promise<AdminBatch> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(missionBatches)
      .values({ ...lotValues(body), visibility: 'invisible', status: 'active' })
      .returning({ id: missionBatches.id });
    await audit(tx, { actorUserId, action: 'batch.create', entity: 'mission_batch', entityId: created!.id, after: body });
    return getBatch(tx, created!.id);
  });
}

/** Modifier le lot (with visibility); the figures and the open invoice follow a price change. */
export async function updateBatch(
  db: Db,
  { batchId, body, actorUserId }: { batchId: string; body: UpdateBatchRequest; actorUserId: string },
): Promise<AdminBatch> {
  return db.transaction(async (tx) => {
    const lot = await lockBatch(tx, batchId);
    if (lot.isSystem) throw new AppError('INVALID_TRANSITION', SYSTEM_LOT_LOCKED);
    if (lot.status === 'completed') throw new AppError('INVALID_TRANSITION', 'Ce lot est terminé et ne peut plus être modifié');
    const before = await getBatch(tx, batchId);
    await tx
      .update(missionBatches)
      .set({ ...lotValues(body), ...(body.visibility ? { visibility: body.visibility } : {}), updatedAt: new Date() })
      .where(eq(missionBatches.id, batchId));
    await recomputeBatchFigures(tx, batchId);
    const after = await getBatch(tx, batchId);
    await audit(tx, { actorUserId, action: 'batch.update', entity: 'mission_batch', entityId: batchId, before, after });
    return after;
  });
}

/** Supprimer: only an empty lot without a recruited technician; never the system lot. */
export async function deleteBatch(db: Db, { batchId, actorUserId }: { batchId: string; actorUserId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const lot = await lockBatch(tx, batchId);
    if (lot.isSystem) throw new AppError('INVALID_TRANSITION', 'Le lot système ne peut pas être supprimé');
    const [missionCount] = await tx.select({ n: count() }).from(missions).where(eq(missions.batchId, batchId));
    if (Number(missionCount?.n ?? 0) > 0) {
      throw new AppError('CONFLICT', 'Impossible de supprimer un lot contenant des missions : déplacez-les ou supprimez-les d’abord');
    }
    const [recruited] = await tx
      .select({ n: count() })
      .from(applications)
      .where(and(eq(applications.batchId, batchId), inArray(applications.status, [...RECRUITED_APPLICATION_STATUSES])));
    if (Number(recruited?.n ?? 0) > 0) throw new AppError('CONFLICT', 'Impossible de supprimer un lot qui a un technicien recruté');
    const before = await getBatch(tx, batchId);
    await tx.delete(missionBatches).where(eq(missionBatches.id, batchId));
    await audit(tx, { actorUserId, action: 'batch.delete', entity: 'mission_batch', entityId: batchId, before });
  });
}

/** Terminer le lot (shared lifecycle rule, idempotent). */
export async function completeBatchAsAdmin(db: Db, { batchId, actorUserId }: { batchId: string; actorUserId: string }): Promise<AdminBatch> {
  return db.transaction(async (tx) => {
    const lot = await lockBatch(tx, batchId);
    await completeBatch(tx, { batchId });
    if (lot.status !== 'completed') {
      await audit(tx, { actorUserId, action: 'batch.complete', entity: 'mission_batch', entityId: batchId, before: { status: lot.status }, after: { status: 'completed' } });
    }
    return getBatch(tx, batchId);
  });
}
