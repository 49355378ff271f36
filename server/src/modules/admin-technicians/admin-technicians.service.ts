import { and, arrayContains, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  TECHNICIAN_SUB_TAB_STATUSES,
  type AdminTechnician,
  type TechnicianCounts,
  type TechnicianListQuery,
  type TechnicianSubTab,
} from '@maillon/common/schemas/admin-technicians';
import type { Technician } from '@maillon/common/schemas/technicians';
import type { TechnicianStatus } from '@maillon/common/enums';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import {
  applications,
  invoicesFiles,
  learningResources,
  missionBatches,
  resourceViews,
  storedFiles,
  technicians,
  users,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { removeStoredFile } from '../../lib/files';
import type { ObjectStorage } from '../../lib/storage/object-storage';
import { enqueueEmail } from '../../lib/outbox';
import { epochMsSql, pageSql } from '../../lib/pagination';
import { substringMatchSql, searchedText } from '../../lib/substring-search';
import { allRowsCountSql, statusCountSql } from '../../lib/row-counts';
import { revokeUserSessions } from '../auth/auth.service';
import { recomputeBatchFigures } from '../lifecycle/lifecycle.service';
import { toTechnician, type TechnicianRow } from '../technicians/technicians.mapper';

interface Page {
  limit: number;
  offset: number;
}

function filterConditions({ search, department }: Pick<TechnicianListQuery, 'search' | 'department'>): SQL[] {
  const conditions: SQL[] = [];
  // First and last name either way round, e-mail, company, on a trigram index (decision 039).
  if (search) conditions.push(substringMatchSql(searchedText('technicians'), search));
  if (department) conditions.push(arrayContains(technicians.departments, [department]));
  return conditions;
}

function listWhere(query: TechnicianListQuery): SQL | undefined {
  const conditions = filterConditions(query);
  if (query.status) conditions.push(inArray(technicians.status, [...TECHNICIAN_SUB_TAB_STATUSES[query.status]]));
  return conditions.length ? and(...conditions) : undefined;
}



/** The columns toTechnician reads, of a technician `t`, as one JSON array built by PostgreSQL (technicianOfTuple). */
const technicianTupleSql = sql.raw(`json_build_array(t.id, t.user_id, t.first_name, t.last_name, t.email, t.phone, t.address, t.city,
  t.postal_code, t.country, t.company_name, t.siret, t.iban, t.preferred_relay_point, t.comments, t.departments,
  t.identity_document_file_id, t.cv_file_id, t.status, t.formation_completed, t.formation_status, t.total_earnings_cents,
  t.completed_missions, ${epochMsSql('t.created_at')}, ${epochMsSql('t.updated_at')})`);

type TechnicianTuple = [
  id: string,
  userId: string,
  firstName: string,
  lastName: string,
  email: string,
  phone: string | null,
  address: string | null,
  city: string | null,
  postalCode: string | null,
  country: string,
  companyName: string | null,
  siret: string | null,
  iban: string | null,
  preferredRelayPoint: string | null,
  comments: string | null,
  departments: string[],
  identityDocumentFileId: string | null,
  cvFileId: string | null,
  status: string,
  formationCompleted: boolean,
  formationStatus: string,
  totalEarningsCents: number,
  completedMissions: number,
  createdAt: number,
  updatedAt: number,
];

/** The safe view of toTechnician (one rule for the IBAN), from a tuple of technicianTupleSql. */
function technicianOfTuple(tuple: TechnicianTuple): Technician {
  const [id, userId, firstName, lastName, email, phone, address, city, postalCode, country, companyName, siret, iban,
    preferredRelayPoint, comments, departments, identityDocumentFileId, cvFileId, status, formationCompleted, formationStatus,
    totalEarningsCents, completedMissions, createdAt, updatedAt] = tuple;
  const row = { id, userId, firstName, lastName, email, phone, address, city, postalCode, country, companyName, siret, iban,
    preferredRelayPoint, comments, departments, identityDocumentFileId, cvFileId, status, formationCompleted, formationStatus,
    totalEarningsCents, completedMissions, createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) };
  // toTechnician reads these columns only; the others of the row are not selected.
  return toTechnician(row as TechnicianRow);
}

/**
 * Technicians of one sub-tab, searched and filtered on the server, one page at a time, in one statement: the page
 * (technicians_status_created_idx for a sub-tab) as one JSON value, and its total: the counts the database keeps
 * (row_counts by status, decision 027) without a search or a department, else a count.
 */
export async function listTechnicians(db: Db, query: TechnicianListQuery & Page): Promise<{ items: Technician[]; total: number }> {
  const where = listWhere(query);
  const condition = where ? sql`where ${where}` : sql``;
  const statuses = query.status ? TECHNICIAN_SUB_TAB_STATUSES[query.status] : null;
  const total = query.search || query.department
    ? sql`(select count(*)::int from technicians ${condition})`
    : statuses
      ? statusCountSql('technicians', statuses)
      : allRowsCountSql('technicians');
  // Moderation works oldest first; the other lists show the newest accounts first.
  const direction = query.status === 'pending' ? 'asc' : 'desc';
  const result = await db.execute<{ total: number; technicians: TechnicianTuple[] }>(sql`
    select ${total} as total,
      coalesce((select json_agg(${technicianTupleSql} order by ${sql.raw(`t.created_at ${direction}, t.id asc`)})
        from (select * from technicians ${condition} order by ${sql.raw(`created_at ${direction}, id asc`)} ${pageSql(query.limit, query.offset)}) t), '[]') as technicians`);
  const row = result.rows[0]!;
  return { items: row.technicians.map(technicianOfTuple), total: Number(row.total) };
}

async function enhance(db: DbOrTx, rows: TechnicianRow[]): Promise<AdminTechnician[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const fileIds = rows.flatMap((r) => [r.identityDocumentFileId, r.cvFileId]).filter((id): id is string => Boolean(id));
  const [[total], reads, lots, files] = await Promise.all([
    db.select({ n: count() }).from(learningResources),
    db
      .select({ technicianId: resourceViews.technicianId, n: count() })
      .from(resourceViews)
      .innerJoin(learningResources, eq(learningResources.id, resourceViews.resourceId))
      .where(inArray(resourceViews.technicianId, ids))
      .groupBy(resourceViews.technicianId),
    db
      .select({ technicianId: applications.technicianId, n: count() })
      .from(applications)
      .where(and(inArray(applications.technicianId, ids), eq(applications.status, 'Recruté')))
      .groupBy(applications.technicianId),
    fileIds.length
      ? db
          .select({ id: storedFiles.id, name: storedFiles.originalName })
          .from(storedFiles)
          .where(inArray(storedFiles.id, fileIds))
      : Promise.resolve([] as { id: string; name: string }[]),
  ]);
  const readBy = new Map(reads.map((r) => [r.technicianId, Number(r.n)]));
  const lotsBy = new Map(lots.map((r) => [r.technicianId, Number(r.n)]));
  const nameOf = new Map(files.map((f) => [f.id, f.name]));
  return rows.map((row) => ({
    ...toTechnician(row),
    resourcesRead: readBy.get(row.id) ?? 0,
    resourcesTotal: Number(total?.n ?? 0),
    activeLots: lotsBy.get(row.id) ?? 0,
    identityDocumentName: row.identityDocumentFileId ? (nameOf.get(row.identityDocumentFileId) ?? null) : null,
    cvName: row.cvFileId ? (nameOf.get(row.cvFileId) ?? null) : null,
  }));
}

/** The admin cards: the same list plus training progress, current lots and document names. */
export async function listEnhancedTechnicians(
  db: Db,
  query: TechnicianListQuery & Page,
): Promise<{ items: AdminTechnician[]; total: number }> {
  const where = listWhere(query);
  const order = query.status === 'pending' ? asc(technicians.createdAt) : desc(technicians.createdAt);
  const [rows, [totalRow]] = await Promise.all([
    db.select().from(technicians).where(where).orderBy(order, asc(technicians.id)).limit(query.limit).offset(query.offset),
    db.select({ n: count() }).from(technicians).where(where),
  ]);
  return { items: await enhance(db, rows), total: Number(totalRow?.n ?? 0) };
}

/** Counts per sub-tab under the same search and department filter. */
export async function countTechniciansByTab(
  db: Db,
  query: Pick<TechnicianListQuery, 'search' | 'department'>,
): Promise<TechnicianCounts> {
  const conditions = filterConditions(query);
  const rows = await db
    .select({ status: technicians.status, n: count() })
    .from(technicians)
    .where(conditions.length ? and(...conditions) : undefined)
    .groupBy(technicians.status);
  const counts: TechnicianCounts = { pending: 0, active: 0, inactive: 0 };
  for (const row of rows) {
    const tab = (Object.keys(TECHNICIAN_SUB_TAB_STATUSES) as TechnicianSubTab[]).find((t) =>
      TECHNICIAN_SUB_TAB_STATUSES[t].includes(row.status as TechnicianStatus),
    );
    if (tab) counts[tab] += Number(row.n);
  }
  return counts;
}

export type TechnicianTransition = 'approve' | 'reject' | 'deactivate' | 'restore';

/** Spec §4 technician transitions; a rejected account can be put back in moderation like a deactivated one (docs/decisions/008). */
const TRANSITIONS: Record<TechnicianTransition, { from: readonly TechnicianStatus[]; to: TechnicianStatus; refused: string }> = {
  approve: { from: ['pending'], to: 'active', refused: 'Seul un technicien en attente de modération peut être approuvé' },
  reject: { from: ['pending'], to: 'rejected', refused: 'Seul un technicien en attente de modération peut être rejeté' },
  deactivate: { from: ['active'], to: 'inactive', refused: 'Seul un technicien actif peut être désactivé' },
  restore: {
    from: ['inactive', 'rejected'],
    to: 'pending',
    refused: 'Seul un technicien désactivé peut être remis en attente de modération',
  },
};

async function lockTechnician(tx: DbOrTx, technicianId: string): Promise<TechnicianRow> {
  await tx.execute(sql`select id from technicians where id = ${technicianId} for update`);
  const [row] = await tx.select().from(technicians).where(eq(technicians.id, technicianId)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'Technicien introuvable');
  return row;
}

function approvalEmail(config: Pick<Config, 'PRODUCT_NAME' | 'PUBLIC_URL'>, row: TechnicianRow) {
  const loginUrl = config.PUBLIC_URL ? `${config.PUBLIC_URL.replace(/\/$/, '')}/technician/login` : '/technician/login';
  return {
    kind: 'technician-approved' as const,
    to: row.email,
    subject: `${config.PRODUCT_NAME} : votre compte technicien est validé`,
    text: [
      `Bonjour ${row.firstName},`,
      '',
      `Votre compte technicien ${config.PRODUCT_NAME} a été validé par l'administrateur.`,
      `Vous pouvez vous connecter dès maintenant : ${loginUrl}`,
      '',
      'Consultez tous les modules de formation (onglet « Me former ») pour pouvoir postuler aux lots de missions.',
      '',
      `L'équipe ${config.PRODUCT_NAME}`,
    ].join('\n'),
  };
}

/**
 * One moderation transition in one transaction: the current status is checked under a row lock (409 otherwise),
 * sessions end at once on reject/deactivate, approval e-mails the technician through the outbox, and the change is audited.
 */
export async function transitionTechnician({
  db,
  config,
  actorUserId,
  technicianId,
  action,
}: {
  db: Db;
  config: Pick<Config, 'PRODUCT_NAME' | 'PUBLIC_URL'>;
  actorUserId: string;
  technicianId: string;
  action: TechnicianTransition;
}): Promise<AdminTechnician> {
  const rule = TRANSITIONS[action];
  const after = await db.transaction(async (tx) => {
    const before = await lockTechnician(tx, technicianId);
    if (!rule.from.includes(before.status as TechnicianStatus)) throw new AppError('INVALID_TRANSITION', rule.refused);
    const [after] = await tx.update(technicians).set({ status: rule.to }).where(eq(technicians.id, technicianId)).returning();
    if (action === 'reject' || action === 'deactivate') await revokeUserSessions(tx, before.userId);
    if (action === 'approve') await enqueueEmail(tx, approvalEmail(config, before));
    await audit(tx, {
      actorUserId,
      action: `technician.${action}`,
      entity: 'technician',
      entityId: technicianId,
      before: { status: before.status },
      after: { status: rule.to },
    });
    return after!;
  });
  // After the commit, on the pool: enhance reads in parallel, which one transaction's connection cannot do.
  const [view] = await enhance(db, [after]);
  return view!;
}

/**
 * Permanent deletion of a deactivated (or rejected) technician: its account, sessions, records and files.
 * Lots it was recruited on are opened again with their figures recomputed. Files leave the disk after the commit.
 */
export async function deleteTechnician({
  db,
  storage,
  actorUserId,
  technicianId,
}: {
  db: Db;
  storage: ObjectStorage;
  actorUserId: string;
  technicianId: string;
}): Promise<void> {
  const storageKeys = await db.transaction(async (tx) => {
    const before = await lockTechnician(tx, technicianId);
    if (before.status !== 'inactive' && before.status !== 'rejected') {
      throw new AppError('INVALID_TRANSITION', 'Seul un technicien désactivé peut être supprimé définitivement');
    }
    const files = await tx
      .select({ key: storedFiles.storageKey })
      .from(storedFiles)
      .where(eq(storedFiles.technicianId, technicianId));
    const recruitedLots = await tx
      .select({ batchId: applications.batchId })
      .from(applications)
      .innerJoin(missionBatches, eq(missionBatches.id, applications.batchId))
      .where(and(eq(applications.technicianId, technicianId), eq(applications.status, 'Recruté')));
    await revokeUserSessions(tx, before.userId);
    // invoices_files restricts the deletion of its stored file: remove those rows before the files.
    await tx.delete(invoicesFiles).where(eq(invoicesFiles.technicianId, technicianId));
    await tx.delete(storedFiles).where(eq(storedFiles.technicianId, technicianId));
    // Cascades remove the technician row and everything that belongs to it.
    await tx.delete(users).where(eq(users.id, before.userId));
    for (const lot of recruitedLots) if (lot.batchId) await recomputeBatchFigures(tx, lot.batchId);
    await audit(tx, {
      actorUserId,
      action: 'technician.delete',
      entity: 'technician',
      entityId: technicianId,
      before: { status: before.status, email: before.email, firstName: before.firstName, lastName: before.lastName },
      after: null,
    });
    return files.map((f) => f.key);
  });
  await Promise.all(storageKeys.map((key) => removeStoredFile(storage, key)));
}
