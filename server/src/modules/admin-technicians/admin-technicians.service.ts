import { and, arrayContains, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  TECHNICIAN_SUB_TAB_STATUSES,
  type AdminTechnician,
  type TechnicianCounts,
  type TechnicianListQuery,
  type TechnicianSubTab,
} from '@maillon/common/schemas/admin-technicians';
import type { TechnicianStatus } from '@maillon/common/enums';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import {
  applications,
  invoicesFiles,
  missionBatches,
  storedFiles,
  technicians,
  users,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { removeStoredFile } from '../../lib/files';
import type { ObjectStorage } from '../../lib/storage/object-storage';
import { enqueueEmail } from '../../lib/outbox';
import { jsonRowSql, pageSql, pageText, type SearchPageText } from '../../lib/pagination';
import { substringMatchSql, searchedText } from '../../lib/substring-search';
import { allRowsCountSql, countsByStatus, statusCountSql } from '../../lib/row-counts';
import { revokeUserSessions } from '../auth/auth.service';
import { recomputeBatchFigures } from '../lifecycle/lifecycle.service';
import { technicianFields, type TechnicianRow } from '../technicians/technicians.mapper';

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


const technicianJsonSql = jsonRowSql(technicianFields);

/**
 * The admin's card of a technician `t` (adminTechnicianSchema): the technician, the library's resources it opened out
 * of all of them, the lots it is recruited on, the names of its identity document and CV. Each an indexed lookup
 * (resource_views_technician_idx, applications_technician_idx, the files' key); the library's size once a statement.
 */
const adminTechnicianJsonSql = jsonRowSql({
  ...technicianFields,
  resourcesRead:
    '(select count(*)::int from resource_views v join learning_resources r on r.id = v.resource_id where v.technician_id = t.id)',
  resourcesTotal: '(select count(*)::int from learning_resources)',
  activeLots: "(select count(*)::int from applications a where a.technician_id = t.id and a.status = 'Recruté')",
  identityDocumentName: '(select f.original_name from stored_files f where f.id = t.identity_document_file_id)',
  cvName: '(select f.original_name from stored_files f where f.id = t.cv_file_id)',
});

/**
 * Technicians of one sub-tab, searched and filtered on the server, one page at a time, in one statement: the page
 * (technicians_status_created_idx for a sub-tab) as the JSON text the route sends (`item`: a technician `t` as JSON),
 * and its total: the counts the database keeps (row_counts by status, decision 027) without a search or a department,
 * else a count.
 */
async function technicianPageText(db: Db, query: TechnicianListQuery & Page, item: SQL): Promise<SearchPageText> {
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
  return pageText(
    db,
    total,
    sql`select coalesce(json_agg(${item} order by ${sql.raw(`t.created_at ${direction}, t.id asc`)}), '[]')
      from (select * from technicians ${condition} order by ${sql.raw(`created_at ${direction}, id asc`)} ${pageSql(query.limit, query.offset)}) t`,
  );
}

/** The list of the spec (GET /api/technicians): technicians as toTechnician answers them. */
export function listTechnicians(db: Db, query: TechnicianListQuery & Page): Promise<SearchPageText> {
  return technicianPageText(db, query, technicianJsonSql);
}

/** The admin's cards (GET /api/technicians/enhanced): the same list plus training progress, current lots and documents. */
export function listEnhancedTechnicians(db: Db, query: TechnicianListQuery & Page): Promise<SearchPageText> {
  return technicianPageText(db, query, adminTechnicianJsonSql);
}

/** One technician's admin card, as the pages write it. */
async function readAdminTechnician(db: DbOrTx, technicianId: string): Promise<AdminTechnician> {
  const result = await db.execute<{ card: AdminTechnician }>(
    sql`select to_json(${adminTechnicianJsonSql}) as card from technicians t where t.id = ${technicianId}`,
  );
  return result.rows[0]!.card;
}

/** Counts per sub-tab under the same search and department filter. */
export async function countTechniciansByTab(
  db: Db,
  query: Pick<TechnicianListQuery, 'search' | 'department'>,
): Promise<TechnicianCounts> {
  const conditions = filterConditions(query);
  // Without a search or a department, the counts the database keeps (decision 027); with one, the matches grouped.
  const rows = conditions.length
    ? await db.select({ status: technicians.status, n: count() }).from(technicians).where(and(...conditions)).groupBy(technicians.status)
    : await countsByStatus(db, 'technicians');
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
  return db.transaction(async (tx) => {
    const before = await lockTechnician(tx, technicianId);
    if (!rule.from.includes(before.status as TechnicianStatus)) throw new AppError('INVALID_TRANSITION', rule.refused);
    await tx.update(technicians).set({ status: rule.to }).where(eq(technicians.id, technicianId));
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
    // The card as the list writes it, read in the transaction that changed it (the row cannot be gone by then).
    return readAdminTechnician(tx, technicianId);
  });
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
