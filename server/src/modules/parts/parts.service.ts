import { addDaysToDay, parisDay } from '@maillon/common/device-rules';
import { CONSUMABLE_KINDS, type ConsumableKind, type ShipmentStatus } from '@maillon/common/enums';
import { NO_RELAY_POINT } from '@maillon/common/schemas/shipments';
import {
  consumableModelKey,
  DEFAULT_EXPIRY_MARGIN_DAYS,
  DEFAULT_SHIP_DAYS_BEFORE_VISIT,
  encodePartsCursor,
  PARTS_MESSAGES,
  PARTS_PROPOSALS_PAGE_SIZE,
  type Consumable,
  type ConsumableRequest,
  type CreatePartsShipmentResponse,
  type LotParts,
  type LotPartsDevice,
  type LotPartsSummary,
  type PartsProposalsPage,
  type PartsProposalsQuery,
  type PartsSettings,
  type ProposedItem,
  type UnusedPart,
  type WorkParts,
} from '@maillon/common/schemas/parts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { createShipmentIn, getShipmentView } from '../admin-shipments/admin-shipments.service';
import * as repo from './parts.repository';

/** Parts follow expiry dates (issue 20, docs/decisions/026): computed on read from the registry, never stored. */

// ---------- Réglages ----------

export async function getPartsSettings(tx: DbOrTx): Promise<PartsSettings> {
  const row = await repo.findSettings(tx);
  return {
    expiryMarginDays: row?.expiryMarginDays ?? DEFAULT_EXPIRY_MARGIN_DAYS,
    shipDaysBeforeVisit: row?.shipDaysBeforeVisit ?? DEFAULT_SHIP_DAYS_BEFORE_VISIT,
  };
}

/** Réglages saved with their audit entry (before / after), in one transaction. */
export async function savePartsSettings(db: Db, actorUserId: string, input: PartsSettings): Promise<PartsSettings> {
  return db.transaction(async (tx) => {
    const before = await getPartsSettings(tx);
    await repo.upsertSettings(tx, input);
    const after = await getPartsSettings(tx);
    await audit(tx, { actorUserId, action: 'parts-settings.update', entity: 'parts_settings', entityId: null, before, after });
    return after;
  });
}

// ---------- Consumables per model ----------

function toConsumable(row: NonNullable<Awaited<ReturnType<typeof repo.findConsumable>>>): Consumable {
  return { id: row.id, manufacturer: row.manufacturer, model: row.model, kind: row.kind, itemLabel: row.itemLabel };
}

export async function listConsumables(db: Db): Promise<Consumable[]> {
  return (await repo.listConsumables(db)).map(toConsumable);
}

const DUPLICATE = 'Ce modèle a déjà une pièce pour ce consommable : modifiez-la';

const CONSUMABLE_NOT_FOUND = 'Pièce de référence introuvable';

/** Each change of the consumables per model is audited (before / after) in its own transaction. */
export async function createConsumable(db: Db, actorUserId: string, input: ConsumableRequest): Promise<Consumable> {
  return db.transaction(async (tx) => {
    const id = await repo.insertConsumable(tx, { ...input, modelKey: consumableModelKey(input.manufacturer, input.model) });
    if (!id) throw new AppError('ALREADY_EXISTS', DUPLICATE, { kind: DUPLICATE });
    const created = toConsumable((await repo.findConsumable(tx, id))!);
    await audit(tx, { actorUserId, action: 'consumable.create', entity: 'consumable', entityId: id, after: created });
    return created;
  });
}

export async function updateConsumable(db: Db, actorUserId: string, id: string, input: ConsumableRequest): Promise<Consumable> {
  return db.transaction(async (tx) => {
    const before = await repo.findConsumable(tx, id);
    if (!before) throw new AppError('NOT_FOUND', CONSUMABLE_NOT_FOUND);
    const modelKey = consumableModelKey(input.manufacturer, input.model);
    const other = await repo.findConsumableIdByKey(tx, modelKey, input.kind);
    if (other && other !== id) throw new AppError('ALREADY_EXISTS', DUPLICATE, { kind: DUPLICATE });
    await repo.updateConsumable(tx, id, { ...input, modelKey });
    const after = toConsumable((await repo.findConsumable(tx, id))!);
    await audit(tx, { actorUserId, action: 'consumable.update', entity: 'consumable', entityId: id, before: toConsumable(before), after });
    return after;
  });
}

export async function deleteConsumable(db: Db, actorUserId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await repo.findConsumable(tx, id);
    if (!before || !(await repo.deleteConsumable(tx, id))) throw new AppError('NOT_FOUND', CONSUMABLE_NOT_FOUND);
    await audit(tx, { actorUserId, action: 'consumable.delete', entity: 'consumable', entityId: id, before: toConsumable(before) });
  });
}

// ---------- Needs per lot and the proposed parcel ----------

type Visit = repo.PendingVisit;

/** A device's model as the parts see it: its name on screen and its part for each consumable, if the model has one. */
interface ModelParts {
  name: string | null;
  items: Partial<Record<ConsumableKind, string>>;
}

/**
 * The reference consumables and the margin of one read, each model and each reference day worked out once: Expéditions
 * reads 2 000 visits of a few dozen models, and normalising every device's model name was most of its Node time.
 */
function createPartsCatalogue(consumables: Awaited<ReturnType<typeof repo.listConsumables>>, marginDays: number) {
  const itemsByKey = new Map(consumables.map((c) => [`${c.modelKey}|${c.kind}`, c.itemLabel]));
  const models = new Map<string, ModelParts>();
  const limits = new Map<string, string>();
  return {
    model(manufacturer: string | null, model: string | null): ModelParts {
      const key = `${manufacturer ?? ''}\u0000${model ?? ''}`;
      let parts = models.get(key);
      if (!parts) {
        const modelKey = consumableModelKey(manufacturer, model);
        const items: ModelParts['items'] = {};
        for (const kind of CONSUMABLE_KINDS) {
          const itemLabel = itemsByKey.get(`${modelKey}|${kind}`);
          if (itemLabel) items[kind] = itemLabel;
        }
        parts = { name: [manufacturer, model].filter(Boolean).join(' - ') || null, items };
        models.set(key, parts);
      }
      return parts;
    },
    /** The day before which a consumable must be replaced: the reference day + the margin. */
    limit(referenceDate: string): string {
      let limit = limits.get(referenceDate);
      if (!limit) {
        limit = addDaysToDay(referenceDate, marginDays);
        limits.set(referenceDate, limit);
      }
      return limit;
    },
  };
}

type PartsCatalogue = ReturnType<typeof createPartsCatalogue>;

/** What one device needs: each consumable expiring before its reference day + the margin, by its model's part. */
function deviceNeeds(visit: Visit, { catalogue, deadline, today }: { catalogue: PartsCatalogue; deadline: string | null; today: string }): LotPartsDevice {
  const visitDay = visit.plannedVisitDay;
  const referenceDate = visitDay ?? deadline ?? today;
  const referenceSource = visitDay ? 'visit' : deadline ? 'deadline' : 'today';
  const device = {
    missionId: visit.missionId,
    deviceId: visit.deviceId,
    serialNumber: visit.serialNumber ?? visit.missionSerial,
    siteName: visit.siteName ?? visit.clientName,
    referenceDate,
    referenceSource,
    model: visit.missionModel,
    needs: [] as LotPartsDevice['needs'],
    toCheck: [] as LotPartsDevice['toCheck'],
  } satisfies LotPartsDevice;
  if (!visit.deviceId) {
    device.toCheck.push({ kind: null, reason: PARTS_MESSAGES.notInRegistry });
    return device;
  }
  const model = catalogue.model(visit.manufacturer, visit.model);
  device.model = model.name;
  const limit = catalogue.limit(referenceDate);
  for (const kind of CONSUMABLE_KINDS) {
    if (kind === 'pediatric_pads' && visit.pediatricPadsPresent !== true) continue;
    const expiry = kind === 'battery' ? visit.batteryExpiry : kind === 'adult_pads' ? visit.adultPadsExpiry : visit.pediatricPadsExpiry;
    if (!expiry) {
      device.toCheck.push({ kind, reason: PARTS_MESSAGES.unknownDate });
      continue;
    }
    if (expiry >= limit) continue;
    const itemLabel = model.items[kind];
    if (itemLabel) device.needs.push({ kind, expiry, itemLabel });
    else device.toCheck.push({ kind, reason: PARTS_MESSAGES.noReference });
  }
  return device;
}

/** Quantities per item: one per device and item (a kit that replaces battery and electrodes counts once). */
function groupItems(devices: LotPartsDevice[]): ProposedItem[] {
  const items = new Map<string, ProposedItem>();
  for (const device of devices) {
    for (const itemLabel of new Set(device.needs.map((n) => n.itemLabel))) {
      const item = items.get(itemLabel) ?? { itemLabel, quantity: 0, devices: [] };
      item.quantity += 1;
      item.devices.push({ missionId: device.missionId, deviceId: device.deviceId, serialNumber: device.serialNumber, siteName: device.siteName });
      items.set(itemLabel, item);
    }
  }
  return [...items.values()].sort((a, b) => a.itemLabel.localeCompare(b.itemLabel, 'fr'));
}

export async function computeLotParts(tx: DbOrTx, batchId: string, today: string = parisDay()): Promise<LotParts> {
  const lot = await repo.findLot(tx, batchId);
  if (!lot || lot.isSystem) throw new AppError('NOT_FOUND', 'Lot de mission introuvable');
  // One after the other: inside a transaction the statements share one connection.
  const settings = await getPartsSettings(tx);
  const recruit = await repo.findLotRecruit(tx, batchId);
  const consumables = await repo.listConsumables(tx);
  const proposed = await repo.findProposedShipment(tx, batchId);
  const shippedAny = await repo.hasShippedParcel(tx, batchId);
  const visits = await repo.listPendingVisits(tx, [{ batchId, technicianId: recruit?.id ?? null }]);
  const catalogue = createPartsCatalogue(consumables, settings.expiryMarginDays);
  return lotPartsOf({ lot, settings, recruit, catalogue, proposed, shippedAny, visits, today });
}

/** What Expéditions keeps of a lot's parts (decision 060); the rest of its line is read live. */
interface LotPartsFigures {
  /** One per device and item, as the proposed parcel counts them. */
  itemCount: number;
  toCheckCount: number;
  /** The first visit still to do, a day in France. */
  firstVisitDate: string | null;
}

function figuresOf(devices: readonly LotPartsDevice[], visits: readonly Visit[]): LotPartsFigures {
  let firstVisitDate: string | null = null;
  for (const { plannedVisitDay } of visits) if (plannedVisitDay && (!firstVisitDate || plannedVisitDay < firstVisitDate)) firstVisitDate = plannedVisitDay;
  return {
    itemCount: devices.reduce((n, d) => n + new Set(d.needs.map((need) => need.itemLabel)).size, 0),
    toCheckCount: devices.reduce((n, d) => n + d.toCheck.length, 0),
    firstVisitDate,
  };
}

interface LotRead {
  lot: { id: string; title: string };
  settings: { expiryMarginDays: number; shipDaysBeforeVisit: number };
  recruit: { id: string; firstName: string; lastName: string; relayPoint: string | null } | null;
  /** The parcel of the lot's proposal; its shipping time as ISO text, as the line sends it. */
  proposed: { id: string; status: ShipmentStatus; shippedDate: string | null } | null;
  shippedAny: boolean;
  today: string;
}

/**
 * A lot's Expéditions line from its figures: its recruit, when to ship, its parcel and whether it is late. Written field
 * by field in one literal: a line spread from another object kept the strings it points to alive through the young
 * generation's collections, and moved 10 KB a request to the old one (decision 085).
 */
function lotSummary({ lot, settings, recruit, figures, proposed, shippedAny, today }: LotRead & { figures: LotPartsFigures }): LotPartsSummary {
  const { firstVisitDate } = figures;
  const shipBy = firstVisitDate ? addDaysToDay(firstVisitDate, -settings.shipDaysBeforeVisit) : null;
  const shipment = proposed && proposed.status !== 'cancelled' ? proposed : null;
  const shipped = shippedAny;
  return {
    batchId: lot.id,
    title: lot.title,
    technician: recruit
      ? { id: recruit.id, name: `${recruit.firstName} ${recruit.lastName}`, relayPoint: recruit.relayPoint?.trim() || NO_RELAY_POINT }
      : null,
    toCheckCount: figures.toCheckCount,
    itemCount: figures.itemCount,
    firstVisitDate,
    shipBy,
    shipment,
    shipped,
    late: figures.itemCount > 0 && !shipped && shipBy !== null && today > shipBy,
  };
}

/** A lot's parts from what was read about it (computeLotParts). */
function lotPartsOf({
  catalogue,
  visits,
  ...read
}: LotRead & {
  lot: { deadlineDay: string | null };
  catalogue: PartsCatalogue;
  /** The visits the recruit has still to do. */
  visits: readonly Visit[];
}): LotParts {
  const devices = visits.map((v) => deviceNeeds(v, { catalogue, deadline: read.lot.deadlineDay, today: read.today }));
  const { itemCount: _itemCount, ...summary } = lotSummary({ ...read, figures: figuresOf(devices, visits) });
  return {
    ...summary,
    marginDays: read.settings.expiryMarginDays,
    shipDaysBeforeVisit: read.settings.shipDaysBeforeVisit,
    devices,
    items: groupItems(devices),
  };
}

export function getLotParts(db: Db, batchId: string): Promise<LotParts> {
  return computeLotParts(db, batchId);
}

/**
 * Expéditions: the proposals of the active lots with a recruit that need parts, have dates to check or a live parcel,
 * a page at a time in title order (or the given lots, for « Missions & Lots »). Each lot's figures are kept (decision
 * 060): the lot list leaves out the lots whose kept figures are current and need nothing, and a lot's parts are
 * computed again only when its version moved (a write on its devices, missions or visits), or when the day, its
 * recruit, its deadline or the parts reference differ from the kept ones. The parcels, the title and the recruit are
 * read live.
 */
export async function listLotPartsSummaries(db: Db, query: PartsProposalsQuery = { limit: PARTS_PROPOSALS_PAGE_SIZE }): Promise<PartsProposalsPage> {
  const batchIds = query.batchIds ?? null;
  if (batchIds?.length === 0) return { items: [], next: null };
  const today = parisDay();
  // The consumables, read only when a lot is computed again.
  let consumables: Promise<Awaited<ReturnType<typeof repo.listConsumables>>> | null = null;
  const readConsumables = () => (consumables ??= repo.listConsumables(db));
  const limit = batchIds ? batchIds.length : query.limit;
  const items: LotPartsSummary[] = [];
  let after = query.after ?? null;
  for (;;) {
    // One lot more than the page still needs: whether another page may follow.
    const chunk = limit - items.length + 1;
    const lots = await repo.listLotsWithRecruit(db, { after, batchIds, limit: chunk, today });
    const lines = await proposalLines(db, lots, { today, readConsumables });
    for (const [k, lot] of lots.entries()) {
      if (items.length === limit) return { items, next: encodePartsCursor(after!) };
      const line = lines[k];
      if (line) items.push(line);
      after = { title: lot.title, id: lot.id };
    }
    // Fewer lots than asked: the list is at its end. Otherwise some needed nothing after all: read on after them.
    if (lots.length < chunk) return { items, next: null };
  }
}

type LotWithRecruit = Awaited<ReturnType<typeof repo.listLotsWithRecruit>>[number];

/**
 * The line of each lot (null: nothing to propose), from its kept figures or computed again (and kept). A lot's kept key
 * is the day, its recruit, its deadline and the parts reference (Réglages' margin and the consumables) of the read, as
 * the lot list writes it (`currentKey`).
 */
async function proposalLines(
  db: Db,
  lots: readonly LotWithRecruit[],
  { today, readConsumables }: { today: string; readConsumables: () => ReturnType<typeof repo.listConsumables> },
): Promise<(LotPartsSummary | null)[]> {
  if (lots.length === 0) return [];
  // Each lot's kept row comes with the lot list, read before the visits.
  const kept = new Map(lots.flatMap((lot) => (lot.kept ? [[lot.id, lot.kept] as const] : [])));
  const figures = new Map<string, LotPartsFigures>();
  const stale: LotWithRecruit[] = [];
  for (const lot of lots) {
    const row = kept.get(lot.id);
    if (row && row.keptVersion === row.version && row.keptKey === lot.currentKey) {
      figures.set(lot.id, { itemCount: row.itemCount, toCheckCount: row.toCheckCount, firstVisitDate: row.firstVisitDay });
    } else stale.push(lot);
  }
  if (stale.length > 0) {
    // The margin of the lot list's statement, which the parts reference of the kept key was worked out from.
    const catalogue = createPartsCatalogue(await readConsumables(), stale[0]!.settings.expiryMarginDays);
    await computeStaleFigures(db, stale, { kept, figures, catalogue, today });
  }
  return lots.map((lot) => {
    const lotFigures = figures.get(lot.id)!;
    const line = lotSummary({ lot, settings: lot.settings, recruit: lot.recruit, figures: lotFigures, proposed: lot.proposed, shippedAny: lot.shipped, today });
    return line.itemCount === 0 && line.toCheckCount === 0 && !line.shipment ? null : line;
  });
}

/** Computes the stale lots' figures from their visits and keeps them, unless a write moved their version meanwhile. */
async function computeStaleFigures(
  db: Db,
  stale: readonly LotWithRecruit[],
  {
    kept,
    figures,
    catalogue,
    today,
  }: { kept: Map<string, repo.KeptParts>; figures: Map<string, LotPartsFigures>; catalogue: PartsCatalogue; today: string },
) {
  // The versions are read before the visits (with the lot list, or here for the lots that had no row): a write
  // committed after them raises the version, and keeps nothing.
  const missing = stale.filter((lot) => !kept.has(lot.id)).map((lot) => lot.id);
  if (missing.length > 0) {
    await repo.ensureKeptParts(db, missing);
    for (const row of await repo.readKeptParts(db, missing)) kept.set(row.batchId, row);
  }
  const visits = await repo.listPendingVisits(db, stale.map((lot) => ({ batchId: lot.id, technicianId: lot.recruit.id })));
  const visitsByLot = new Map<string, Visit[]>();
  for (const visit of visits) {
    const list = visitsByLot.get(visit.batchId);
    if (list) list.push(visit);
    else visitsByLot.set(visit.batchId, [visit]);
  }
  const toKeep: repo.PartsToKeep[] = [];
  for (const lot of stale) {
    const lotVisits = visitsByLot.get(lot.id) ?? [];
    const computed = figuresOf(lotVisits.map((v) => deviceNeeds(v, { catalogue, deadline: lot.deadlineDay, today })), lotVisits);
    figures.set(lot.id, computed);
    const version = kept.get(lot.id)?.version;
    if (version !== undefined) toKeep.push({ batchId: lot.id, version, key: lot.currentKey, ...computed, firstVisitDay: computed.firstVisitDate });
  }
  await repo.keepParts(db, toKeep);
}

/**
 * « Créer le colis »: the draft parcel of the lot's proposal, with the device each part is for. Under the lot's row
 * lock and its unique link: a second call (another tab, another instance) answers the same parcel. A cancelled parcel
 * is forgotten, so the admin can start again.
 */
export async function createPartsShipment(db: Db, batchId: string): Promise<CreatePartsShipmentResponse> {
  return db.transaction(async (tx) => {
    await repo.lockLot(tx, batchId);
    const existing = await repo.findProposedShipment(tx, batchId);
    if (existing && existing.status !== 'cancelled') {
      return { created: false, shipment: await getShipmentView(tx, existing.id) };
    }
    if (existing) await repo.deleteProposedLink(tx, batchId);
    const parts = await computeLotParts(tx, batchId);
    if (!parts.technician) throw new AppError('CONFLICT', 'Aucun technicien n’est recruté sur ce lot');
    if (parts.items.length === 0) throw new AppError('CONFLICT', PARTS_MESSAGES.nothingToSend);
    const content = parts.items.map((item) => `${item.quantity} × ${item.itemLabel}`).join('\n');
    const shipment = await createShipmentIn(tx, { batchId, status: 'draft', content });
    await repo.insertProposedLink(tx, batchId, shipment.id);
    await repo.insertShipmentParts(
      tx,
      parts.devices.flatMap((device) =>
        device.needs.map((need) => ({ shipmentId: shipment.id, missionId: device.missionId, deviceId: device.deviceId, kind: need.kind, itemLabel: need.itemLabel })),
      ),
    );
    return { created: true, shipment };
  });
}

// ---------- After the visits ----------

/** Parts sent for a visit whose complete report does not list them among the replaced consumables. */
export async function listUnusedParts(db: Db, batchId: string): Promise<UnusedPart[]> {
  const lot = await repo.findLot(db, batchId);
  if (!lot || lot.isSystem) throw new AppError('NOT_FOUND', 'Lot de mission introuvable');
  const parts = await repo.listLotShipmentParts(db, batchId);
  const reports = await repo.listCompleteReports(db, [...new Set(parts.map((p) => p.missionId))]);
  const byMission = new Map(reports.map((r) => [r.missionId, r]));
  return parts.flatMap((part) => {
    const report = byMission.get(part.missionId);
    if (!report || report.consumablesReplaced.includes(part.itemLabel)) return [];
    return [
      {
        shipmentId: part.shipmentId,
        missionId: part.missionId,
        deviceId: part.deviceId,
        serialNumber: part.serialNumber,
        siteName: part.siteName,
        kind: part.kind as ConsumableKind,
        itemLabel: part.itemLabel,
        visitedAt: report.visitedAt?.toISOString() ?? null,
      },
    ];
  });
}

// ---------- Technician ----------

/** The parts coming for each device of the technician's lot (its Recruté view), from its live parcels. */
export async function getApplicationParts(db: Db, applicationId: string): Promise<WorkParts> {
  const application = await repo.findApplication(db, applicationId);
  if (!application?.batchId) throw new AppError('NOT_FOUND', 'Candidature introuvable');
  const rows = await repo.listTechnicianLotParts(db, application.batchId, application.technicianId);
  const byMission = new Map<string, WorkParts[number]>();
  for (const row of rows) {
    const entry = byMission.get(row.missionId) ?? { missionId: row.missionId, parts: [] };
    entry.parts.push({
      kind: row.kind as ConsumableKind,
      itemLabel: row.itemLabel,
      shipmentId: row.shipmentId,
      shipmentStatus: row.shipmentStatus as WorkParts[number]['parts'][number]['shipmentStatus'],
    });
    byMission.set(row.missionId, entry);
  }
  return [...byMission.values()];
}

/** The item labels sent for one visit to its technician (live parcels): the report's « consommables remplacés » start. */
export async function listPartsComingForVisit(db: DbOrTx, { missionId, technicianId }: { missionId: string; technicianId: string }): Promise<string[]> {
  const rows = await repo.listVisitParts(db, missionId, technicianId);
  return [...new Set(rows.map((r) => r.itemLabel))];
}
