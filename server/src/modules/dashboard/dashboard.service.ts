import { sql, type SQL } from 'drizzle-orm';
import { addDaysToDay, ATTENTION_WINDOW_DAYS, parisDay } from '@maillon/common/device-rules';
import type { Db } from '../../db/client';
import { preparedSql } from '../../db/prepared-queries';
import { allRowsKeysSql, devicesNeedingAttentionCountSql, lotKeysSql, missionKeysSql, openLotsCountSql, statusKeysSql } from '../../lib/row-counts';

export interface TechnicianCounts {
  formation: { total: number; read: number };
  findMissions: number;
  applications: number;
  revenue: number;
  packages: number;
}

/** Tab badges of the technician dashboard (spec §2 count rules), in one statement rendered once (decision 032). */
export async function getTechnicianCounts(db: Db, technicianId: string): Promise<TechnicianCounts> {
  // Lots and resources are counted by the database (row_counts, decision 027); the technician's own rows are a few
  // indexed lookups (each index starts with technician_id).
  const result = await preparedSql<Record<string, number>>(db, 'technician-counts', () => {
    const technician = sql.placeholder('technicianId');
    return sql`
      select
        (select coalesce(sum(n), 0) from row_counts where table_name = 'learning_resources')::int as formation_total,
        (select count(*) from resource_views rv join learning_resources lr on lr.id = rv.resource_id
          where rv.technician_id = ${technician})::int as formation_read,
        ${openLotsCountSql()}::int as find_missions,
        (select count(*) from applications
          where technician_id = ${technician} and status in ('Recruté', 'En attente', 'Terminé'))::int as applications,
        ((select count(*) from invoices where technician_id = ${technician} and status = 'Facture à soumettre')
          + (select count(*) from transfers where technician_id = ${technician} and status = 'Enregistré'))::int as revenue,
        (select count(*) from shipments where technician_id = ${technician} and status = 'in_transit')::int as packages`;
  }).execute({ technicianId });
  const row = result.rows[0] ?? {};
  return {
    formation: { total: Number(row.formation_total ?? 0), read: Number(row.formation_read ?? 0) },
    findMissions: Number(row.find_missions ?? 0),
    applications: Number(row.applications ?? 0),
    revenue: Number(row.revenue ?? 0),
    packages: Number(row.packages ?? 0),
  };
}

export interface AdminCounts {
  suggestions: number;
  missionsLots: number;
  techniciens: number;
  facturesVirements: number;
  expeditions: number;
  librairie: number;
  /** Devices needing attention: out of order, or a date past or within 30 days (docs/decisions/024). */
  parcDae: number;
}

/** A badge's sum over the rows of row_counts read once: the keys of its list's total, as a FILTER. */
const badgeSql = (keys: SQL) => sql`coalesce(sum(n) filter (where ${keys}), 0)::int`;

/**
 * Each badge is the kept count its list reads for its total (row_counts, decision 027), in one statement rendered once
 * (decision 032: the attention day is its only value). The badges counted by status are summed in one reading of
 * row_counts (decision 034): the index range of the tables named after « devices » — invoices, jobs,
 * learning_resources, mission_batches, missions, open_lot_departments and open_lot_tags (a key per department or tag,
 * filtered out), shipments, technicians, transfers — each badge a FILTER on the same keys as its list's total (ten
 * separate index reads cost twice as much). The devices' hundreds of day keys stay out of that range: the Parc DAE
 * badge reads its own three.
 */
const adminCountsSql = () => sql`
  select kept.suggestions, kept.missions_lots, kept.techniciens, kept.factures_virements, kept.expeditions, kept.librairie,
    ${devicesNeedingAttentionCountSql(sql.placeholder('attentionDay'))} as parc_dae
  from (
    select
      ${badgeSql(statusKeysSql('jobs', ['pending']))} as suggestions,
      ${badgeSql(sql`(${missionKeysSql({ unbatched: true })}) or (${lotKeysSql('active')})`)} as missions_lots,
      ${badgeSql(statusKeysSql('technicians', ['pending']))} as techniciens,
      ${badgeSql(sql`(${statusKeysSql('invoices', ['Facture envoyée', 'Facture envoyée.paid'])}) or (${statusKeysSql('transfers', ['Enregistré'])})`)} as factures_virements,
      ${badgeSql(statusKeysSql('shipments', ['draft', 'in_transit']))} as expeditions,
      ${badgeSql(allRowsKeysSql('learning_resources'))} as librairie
    from row_counts
    where table_name > 'devices' and table_name not in ('open_lot_departments', 'open_lot_tags')
  ) kept`;

/**
 * Admin tab badges, one query (docs/decisions/004): what waits for the administrator —
 * pending visits, unsorted missions + active lots, technicians to moderate, invoices to pay,
 * draft shipments, the size of the library, and the devices needing attention (Parc DAE).
 */
export async function getAdminCounts(db: Db): Promise<AdminCounts> {
  const result = await preparedSql<Record<string, number>>(db, 'admin-counts', adminCountsSql).execute({
    attentionDay: addDaysToDay(parisDay(), ATTENTION_WINDOW_DAYS),
  });
  const row = result.rows[0] ?? {};
  return {
    suggestions: Number(row.suggestions ?? 0),
    missionsLots: Number(row.missions_lots ?? 0),
    techniciens: Number(row.techniciens ?? 0),
    facturesVirements: Number(row.factures_virements ?? 0),
    expeditions: Number(row.expeditions ?? 0),
    librairie: Number(row.librairie ?? 0),
    parcDae: Number(row.parc_dae ?? 0),
  };
}
