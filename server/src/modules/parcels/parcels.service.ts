import { and, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { SHIPMENT_STATUS_LABELS, SHIPMENT_STATUSES, type ShipmentStatus } from '@maillon/common/enums';
import { RECEIVABLE_SHIPMENT_STATUSES, type Parcel } from '@maillon/common/schemas/parcels';
import type { Db } from '../../db/client';
import { preparedSql } from '../../db/prepared-queries';
import { missionBatches, shipments } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { jsonRowSql, likePattern, pageFromRow, pageShape, pageSql, pageTextSql, type PageTextRow, type SearchPageText } from '../../lib/pagination';
import { assertTechnicianSelf } from '../../plugins/access';
import type { AuthContext } from '../auth/auth.service';

const NOT_FOUND = 'Colis introuvable';

const fold = (text: string) => text.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');

const parcelColumns = {
  id: shipments.id,
  status: shipments.status,
  missionId: shipments.missionId,
  batchId: shipments.batchId,
  missionTitle: sql<string | null>`coalesce(shipments.mission_title, mission_batches.title)`,
  carrier: shipments.carrier,
  trackingNumber: shipments.trackingNumber,
  destination: shipments.destination,
  content: shipments.content,
  shippedDate: shipments.shippedDate,
  deliveredDate: shipments.deliveredDate,
};

type ParcelRow = {
  id: string;
  status: string;
  missionId: string | null;
  batchId: string | null;
  missionTitle: string | null;
  carrier: string;
  trackingNumber: string | null;
  destination: string | null;
  content: string | null;
  shippedDate: Date | null;
  deliveredDate: Date | null;
};

/** A parcel as its reception answers it; the technician's list writes the same in SQL (parcelJsonSql). */
function toParcel(row: ParcelRow): Parcel {
  return {
    ...row,
    status: row.status as ShipmentStatus,
    shippedDate: row.shippedDate?.toISOString() ?? null,
    deliveredDate: row.deliveredDate?.toISOString() ?? null,
  };
}

/** Free-text search over mission, status (code or French label), carrier, tracking number, destination, content, shipped date. */
function searchCondition(search: string): SQL | undefined {
  const pattern = likePattern(search);
  const wanted = fold(search);
  const statuses = SHIPMENT_STATUSES.filter((s) => fold(SHIPMENT_STATUS_LABELS[s]).includes(wanted) || s.includes(wanted));
  return or(
    ilike(shipments.missionTitle, pattern),
    ilike(missionBatches.title, pattern),
    ilike(shipments.carrier, pattern),
    ilike(shipments.trackingNumber, pattern),
    ilike(shipments.destination, pattern),
    ilike(shipments.content, pattern),
    sql`to_char(shipments.shipped_date at time zone 'Europe/Paris', 'DD/MM/YYYY') ilike ${pattern}`,
    statuses.length > 0 ? inArray(shipments.status, statuses) : undefined,
  );
}

/**
 * A parcel `p` (a shipment with its lot's title as `batch_title`) as toParcel answers it (parcelSchema), written by
 * PostgreSQL for a page sent as it is (decision 072).
 */
const parcelJsonSql = jsonRowSql({
  id: 'p.id',
  status: 'p.status',
  missionId: 'p.mission_id',
  batchId: 'p.batch_id',
  missionTitle: 'coalesce(p.mission_title, p.batch_title)',
  carrier: 'p.carrier',
  trackingNumber: 'p.tracking_number',
  destination: 'p.destination',
  content: 'p.content',
  shippedDate: 'maillon_json_time(p.shipped_date)',
  deliveredDate: 'maillon_json_time(p.delivered_date)',
});

/**
 * A technician's parcels under `where` (shipments joined with their lot), on the way first, then by shipped date
 * (newest first), and their number, in one statement: the page as JSON text, its size a literal, its offset `offset`.
 */
function parcelsPageSql(where: SQL, page: { limit: number; offset: number }, offset: unknown): SQL {
  const from = sql`from shipments left join mission_batches on mission_batches.id = shipments.batch_id where ${where}`;
  return pageTextSql(
    sql`(select count(*)::int ${from})`,
    sql`coalesce((select json_agg(${parcelJsonSql} order by p.rank, p.shipped_date desc nulls last, p.created_at desc, p.id desc) from (
        select shipments.*, mission_batches.title as batch_title,
          case shipments.status when 'in_transit' then 0 when 'draft' then 1 when 'delivered' then 2 else 3 end as rank
        ${from}
        order by rank, shipments.shipped_date desc nulls last, shipments.created_at desc, shipments.id desc ${pageSql(page.limit, page.offset, offset)}
      ) p), '[]')`,
  );
}

/**
 * The technician's own parcels, on the way first, then by shipped date (newest first), paged, as the JSON text the
 * route sends (decision 072). Without a search (the « Colis » tab's read) the statement is rendered once per page size.
 */
export async function listParcelsText(
  db: Db,
  { auth, technicianId, search, limit, offset }: { auth: AuthContext; technicianId: string; search?: string | undefined; limit: number; offset: number },
): Promise<SearchPageText> {
  assertTechnicianSelf(auth, technicianId, 'Technicien introuvable');
  const page = { limit, offset };
  const { rows } = search
    ? await db.execute<PageTextRow>(parcelsPageSql(and(eq(shipments.technicianId, technicianId), searchCondition(search))!, page, offset))
    : await preparedSql<PageTextRow>(db, `technician-parcels-json-${pageShape(page)}`, () =>
        parcelsPageSql(eq(shipments.technicianId, sql.placeholder('technicianId')), page, sql.placeholder('offset')),
      ).execute({ technicianId, offset });
  return pageFromRow(rows[0]!);
}

/** "Marquer comme reçu": Brouillon / Expédié → delivered with today's date. Own parcels only; idempotent. */
export async function receiveParcel(db: Db, { auth, shipmentId }: { auth: AuthContext; shipmentId: string }): Promise<Parcel> {
  if (!auth.technicianId) throw new AppError('NOT_FOUND', NOT_FOUND);
  const technicianId = auth.technicianId;
  return db.transaction(async (tx) => {
    const own = and(eq(shipments.id, shipmentId), eq(shipments.technicianId, technicianId));
    await tx
      .update(shipments)
      .set({ status: 'delivered', deliveredDate: new Date() })
      .where(and(own, inArray(shipments.status, [...RECEIVABLE_SHIPMENT_STATUSES])));
    const [row] = await tx.select(parcelColumns).from(shipments).leftJoin(missionBatches, eq(missionBatches.id, shipments.batchId)).where(own).limit(1);
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    if (row.status !== 'delivered') throw new AppError('INVALID_TRANSITION', 'Ce colis a été annulé : il ne peut pas être marqué comme reçu');
    return toParcel(row);
  });
}
