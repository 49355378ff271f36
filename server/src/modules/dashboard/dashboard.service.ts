import { sql } from 'drizzle-orm';
import { addDaysToDay, ATTENTION_WINDOW_DAYS, parisDay } from '@maillon/common/device-rules';
import type { Db } from '../../db/client';

export interface TechnicianCounts {
  formation: { total: number; read: number };
  findMissions: number;
  applications: number;
  revenue: number;
  packages: number;
}

/** Tab badges of the technician dashboard (spec §2 count rules), in one query. */
export async function getTechnicianCounts(db: Db, technicianId: string): Promise<TechnicianCounts> {
  const result = await db.execute<Record<string, number>>(sql`
    select
      (select count(*) from learning_resources)::int as formation_total,
      (select count(*) from resource_views rv join learning_resources lr on lr.id = rv.resource_id
        where rv.technician_id = ${technicianId})::int as formation_read,
      (select count(*) from mission_batches
        where visibility = 'visible' and status <> 'completed' and not is_system)::int as find_missions,
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
  const result = await db.execute<Record<string, number>>(sql`
    select
      (select count(*) from jobs where status = 'pending')::int as suggestions,
      ((select count(*) from missions where batch_id is null and status in ('draft', 'active'))
        + (select count(*) from mission_batches where status = 'active' and not is_system))::int as missions_lots,
      (select count(*) from technicians where status = 'pending')::int as techniciens,
      ((select count(*) from invoices where status = 'Facture envoyée')
        + (select count(*) from transfers where status = 'Enregistré'))::int as factures_virements,
      (select count(*) from shipments where status in ('draft', 'in_transit'))::int as expeditions,
      (select count(*) from learning_resources)::int as librairie,
      (select count(*) from devices where functional_state = 'Hors service' or (functional_state <> 'Supprimé définitivement' and
        least(battery_expiry, adult_pads_expiry, case when pediatric_pads_present then pediatric_pads_expiry end, next_maintenance_due) <= ${attentionDay}::date))::int as parc_dae
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
