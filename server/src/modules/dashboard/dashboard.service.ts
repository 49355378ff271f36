import { sql } from 'drizzle-orm';
import { addDaysToDay, ATTENTION_WINDOW_DAYS, parisDay } from '@maillon/common/device-rules';
import type { Db } from '../../db/client';
import { preparedSql } from '../../db/prepared-queries';
import {
  allRowsCountSql,
  devicesNeedingAttentionCountSql,
  lotsCountSql,
  missionsCountSql,
  openLotsCountSql,
  statusCountSql,
} from '../../lib/row-counts';

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

/**
 * Each badge is the kept count its list reads for its total (row_counts, decision 027): a few index reads of row_counts
 * in one statement, each on its own keys (one pass filtering every key for every badge cost half as much again), and for
 * the devices the range of attention dates up to the day plus those out of order. Rendered once (decision 032): the
 * attention day is its only value.
 */
const adminCountsSql = () => sql`
  select
    ${statusCountSql('jobs', ['pending'])} as suggestions,
    (${missionsCountSql({ unbatched: true })} + ${lotsCountSql('active')}) as missions_lots,
    ${statusCountSql('technicians', ['pending'])} as techniciens,
    (${statusCountSql('invoices', ['Facture envoyée'])} + ${statusCountSql('transfers', ['Enregistré'])}) as factures_virements,
    ${statusCountSql('shipments', ['draft', 'in_transit'])} as expeditions,
    ${allRowsCountSql('learning_resources')} as librairie,
    ${devicesNeedingAttentionCountSql(sql.placeholder('attentionDay'))} as parc_dae`;

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
