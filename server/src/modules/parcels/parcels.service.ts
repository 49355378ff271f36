import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { SHIPMENT_STATUS_LABELS, SHIPMENT_STATUSES, type ShipmentStatus } from '@maillon/common/enums';
import { RECEIVABLE_SHIPMENT_STATUSES, type Parcel } from '@maillon/common/schemas/parcels';
import type { Db, DbOrTx } from '../../db/client';
import { preparedQuery } from '../../db/prepared-queries';
import { missionBatches, shipments } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { likePattern, pageTotal, windowTotal } from '../../lib/pagination';
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

/** A technician's parcels with the total each row carries, on the way first, then by shipped date (newest first). */
function parcelsPage(db: DbOrTx, where: SQL | undefined) {
  return db
    .select({ ...parcelColumns, total: windowTotal() })
    .from(shipments)
    .leftJoin(missionBatches, eq(missionBatches.id, shipments.batchId))
    .where(where)
    .orderBy(
      sql`case shipments.status when 'in_transit' then 0 when 'draft' then 1 when 'delivered' then 2 else 3 end`,
      sql`shipments.shipped_date desc nulls last`,
      desc(shipments.createdAt),
      desc(shipments.id),
    );
}

/** The technician's own parcels, on the way first, then by shipped date (newest first). Paged. */
export async function listParcels(
  db: Db,
  { auth, technicianId, search, limit, offset }: { auth: AuthContext; technicianId: string; search?: string | undefined; limit: number; offset: number },
): Promise<{ items: Parcel[]; total: number }> {
  assertTechnicianSelf(auth, technicianId, 'Technicien introuvable');
  const where = and(eq(shipments.technicianId, technicianId), search ? searchCondition(search) : undefined);
  // One statement: the page with the total each of its rows carries (a page past the end counts on its own). Without a
  // search (the « Colis » tab's read) it is built once, its values as placeholders (db/prepared-queries.ts).
  const rows = search
    ? await parcelsPage(db, where).limit(limit).offset(offset)
    : await preparedQuery(db, 'technician-parcels', () =>
        parcelsPage(db, eq(shipments.technicianId, sql.placeholder('technicianId')))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset'))
          .prepare('maillon_technician_parcels'),
      ).execute({ technicianId, limit, offset });
  const total = await pageTotal(rows, offset, async () => {
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(shipments).leftJoin(missionBatches, eq(missionBatches.id, shipments.batchId)).where(where);
    return Number(count?.n ?? 0);
  });
  return { items: rows.map(({ total: _total, ...row }) => toParcel(row)), total };
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
