import { sql } from 'drizzle-orm';
import { addDaysToDay, ATTENTION_WINDOW_DAYS, parisDay } from '@maillon/common/device-rules';
import type { Db } from '../../db/client';
import { devicesNeedingAttentionKeys, openLotsCountSql } from '../../lib/row-counts';

export interface TechnicianCounts {
  formation: { total: number; read: number };
  findMissions: number;
  applications: number;
  revenue: number;
  packages: number;
}

/** Tab badges of the technician dashboard (spec §2 count rules), in one query. */
export async function getTechnicianCounts(db: Db, technicianId: string): Promise<TechnicianCounts> {
  // Lots and resources are counted by the database (row_counts, decision 027); the technician's own rows are a few
  // indexed lookups (each index starts with technician_id).
  const result = await db.execute<Record<string, number>>(sql`
    select
      (select coalesce(sum(n), 0) from row_counts where table_name = 'learning_resources')::int as formation_total,
      (select count(*) from resource_views rv join learning_resources lr on lr.id = rv.resource_id
        where rv.technician_id = ${technicianId})::int as formation_read,
      ${openLotsCountSql()}::int as find_missions,
      (select count(*) from applications
        where technician_id = ${technicianId} and status in ('Recruté', 'En attente', 'Terminé'))::int as applications,
      ((select count(*) from invoices where technician_id = ${technicianId} and status = 'Facture à soumettre')
        + (select count(*) from transfers where technician_id = ${technicianId} and status = 'Enregistré'))::int as revenue,
      (select count(*) from shipments where technician_id = ${technicianId} and status = 'in_transit')::int as packages
  `);
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
 * Admin tab badges, one query (docs/decisions/004): what waits for the administrator —
 * pending visits, unsorted missions + active lots, technicians to moderate, invoices to pay,
 * draft shipments, the size of the library, and the devices needing attention (Parc DAE).
 */
export async function getAdminCounts(db: Db): Promise<AdminCounts> {
  const attentionDay = addDaysToDay(parisDay(), ATTENTION_WINDOW_DAYS);
  // One indexed read of row_counts (kept by triggers, decision 027): a few status rows per table, and for the devices
  // the dates up to the attention day (a range of the primary key) plus those out of order.
  const result = await db.execute<Record<string, number>>(sql`
    select
      coalesce(sum(n) filter (where table_name = 'jobs' and key = 'pending'), 0)::int as suggestions,
      coalesce(sum(n) filter (where (table_name = 'missions' and key in ('draft.unsorted', 'active.unsorted'))
        or (table_name = 'mission_batches' and key like 'active.%' and key not like '%.system')), 0)::int as missions_lots,
      coalesce(sum(n) filter (where table_name = 'technicians' and key = 'pending'), 0)::int as techniciens,
      coalesce(sum(n) filter (where (table_name = 'invoices' and key = 'Facture envoyée')
        or (table_name = 'transfers' and key = 'Enregistré')), 0)::int as factures_virements,
      coalesce(sum(n) filter (where table_name = 'shipments' and key in ('draft', 'in_transit')), 0)::int as expeditions,
      coalesce(sum(n) filter (where table_name = 'learning_resources'), 0)::int as librairie,
      coalesce(sum(n) filter (where table_name = 'devices'), 0)::int as parc_dae
    from row_counts
    where table_name in ('jobs', 'missions', 'mission_batches', 'technicians', 'invoices', 'transfers', 'shipments', 'learning_resources')
      or ${devicesNeedingAttentionKeys(attentionDay)}
  `);
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
