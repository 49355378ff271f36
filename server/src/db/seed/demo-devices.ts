import crypto from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { addDaysToDay, addMonthsToDay, parisDay } from '@maillon/common/device-rules';
import { SHIPMENT_ITEMS } from '@maillon/common/reference-lists';
import type { Config } from '../../config';
import type { Db } from '../client';
import * as t from '../schema';
import type { ObjectStorage } from '../../lib/storage/object-storage';
import type { AuthContext } from '../../modules/auth/auth.service';
import { linkMissionToDevice, registerVisitDevices } from '../../modules/devices/devices.service';
import { saveFinalReport, uploadReportPhoto } from '../../modules/visit-reports/visit-reports.service';

/**
 * The demo's device registry (issue 16): every demo mission and pending visit has its device, with fictitious
 * exploitants (valid SIREN keys), access, opening hours and dates spread around today (some expired, some due soon,
 * most fine, a few out of order or incomplete), and one past visit of the demo technician with a complete report, its
 * photos, signature and PV, written through the real visit-report service.
 */

/** A SIREN with its Luhn key: the 8 first digits are ours, the 9th makes it valid. */
export function withSirenKey(first8: string): string {
  for (let key = 0; key < 10; key += 1) {
    const digits = `${first8}${key}`;
    let sum = 0;
    for (let i = 0; i < 9; i += 1) {
      let digit = Number(digits[8 - i]);
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error('unreachable');
}

const OPERATORS = [
  { name: (city: string) => `Commune de ${city}`, siren: '21750012', email: 'dae.mairie' },
  { name: () => 'SELARL Pharmacie des Tilleuls', siren: '84213657', email: 'contact.tilleuls' },
  { name: () => 'Association sportive Les Cadets', siren: '78851234', email: 'secretariat.cadets' },
  { name: () => 'SCI Résidences du Parc', siren: '51478963', email: 'gestion.residences' },
  { name: (city: string) => `Syndicat intercommunal des sports de ${city}`, siren: '25690147', email: 'sivu.sports' },
  { name: () => 'SAS Galeries du Centre', siren: '43287615', email: 'securite.galeries' },
] as const;

/** Days from today of the expiry dates: a few past, a few within 30 days, most months or years away. */
const EXPIRY_OFFSETS = [380, 520, -40, 210, 700, 460, 610, 300, 840, 95, 560, 420, 650, 330, 24, 760, 490, 900, 250, 680];
const PADS_OFFSETS = [430, 260, 510, 150, 720, 340, 600, -12, 480, 390, 270, 560, 640, 820, 28, 700, 365];
const HOURS = ['24/7', 'Mo-Fr 08:00-18:00', 'Mo-Fr 08:30-12:00,13:30-17:30; Sa 09:00-12:00; PH off', 'Mo-Su 07:00-22:00', 'Mo-Sa 09:00-19:30; Su,PH off'];
const slug = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Links every demo mission and pending visit to its device, then fills the registry. */
export async function seedDemoRegistry(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const missionRows = await tx.select({ id: t.missions.id }).from(t.missions).orderBy(asc(t.missions.createdAt), asc(t.missions.id));
    for (const mission of missionRows) await linkMissionToDevice(tx, mission.id);
    const pending = await tx.select().from(t.jobs).where(eq(t.jobs.status, 'pending'));
    await registerVisitDevices(tx, pending);

    const today = parisDay();
    const rows = await tx.select({ id: t.devices.id, city: t.devices.city, siteName: t.devices.siteName }).from(t.devices).orderBy(asc(t.devices.serialKey));
    for (const [i, device] of rows.entries()) {
      const city = device.city ?? 'Paris';
      const operator = OPERATORS[i % OPERATORS.length]!;
      const incomplete = i % 9 === 4;
      // Last maintenance from 3 weeks to about a year ago; one device in 13 is overdue.
      const lastMaintenanceOn = addDaysToDay(today, i % 13 === 7 ? -395 : -(20 + ((i * 37) % 340)));
      const pediatric = i % 3 === 0;
      await tx
        .update(t.devices)
        .set({
          access: i % 3 === 1 ? 'Extérieur' : 'Intérieur',
          freeAccess: i % 4 !== 2,
          accessFloor: i % 3 === 1 ? null : i % 2 === 0 ? '0' : '1',
          accessDetails: i % 3 === 1 ? 'Armoire murale à droite de l’entrée principale' : 'Dans le hall, près de l’accueil',
          openingHours: incomplete ? null : HOURS[i % HOURS.length]!,
          operatorName: incomplete ? null : operator.name(city),
          operatorSiren: incomplete ? null : withSirenKey(operator.siren),
          operatorPhone: incomplete ? null : `01 4${i % 10} 5${(i + 3) % 10} 6${(i + 5) % 10} 7${(i + 7) % 10}`,
          operatorEmail: incomplete ? null : `${operator.email}@${slug(city)}.exemple.fr`,
          functionalState: i % 11 === 3 ? 'Hors service' : i % 17 === 5 ? 'Absent momentanément' : 'En fonctionnement',
          installedOn: addDaysToDay(today, -(700 + ((i * 97) % 1500))),
          lastMaintenanceOn,
          nextMaintenanceDue: addMonthsToDay(lastMaintenanceOn, 12),
          batteryExpiry: addDaysToDay(today, EXPIRY_OFFSETS[i % EXPIRY_OFFSETS.length]!),
          adultPadsExpiry: addDaysToDay(today, PADS_OFFSETS[i % PADS_OFFSETS.length]!),
          pediatricPadsPresent: pediatric,
          pediatricPadsExpiry: pediatric ? addDaysToDay(today, PADS_OFFSETS[(i + 4) % PADS_OFFSETS.length]!) : null,
          updatedAt: new Date(),
        })
        .where(eq(t.devices.id, device.id));
    }
  });
}

/** A photo of a defibrillator cabinet on a wall, drawn (no text, so no font is needed). */
async function demoPhoto(variant: number): Promise<Buffer> {
  const wall = variant === 0 ? '#d9d4c7' : '#c9d3db';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900">
    <rect width="1200" height="900" fill="${wall}"/><rect y="700" width="1200" height="200" fill="#8d8577"/>
    <rect x="430" y="170" width="340" height="440" rx="24" fill="#1f8a4c"/><rect x="470" y="210" width="260" height="300" rx="12" fill="#e9f5ee"/>
    <path d="M600 430 C 520 370, 500 300, 560 285 C 585 280, 598 300, 600 315 C 602 300, 615 280, 640 285 C 700 300, 680 370, 600 430 Z" fill="#d7263d"/>
    <path d="M610 300 L 585 365 L 608 365 L 590 420 L 640 345 L 615 345 L 632 300 Z" fill="#ffffff"/>
    <rect x="500" y="540" width="200" height="40" rx="8" fill="#ffffff" opacity="0.85"/>
    ${variant === 1 ? '<rect x="800" y="200" width="120" height="120" rx="10" fill="#1f8a4c"/><circle cx="860" cy="260" r="35" fill="#ffffff"/>' : ''}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function demoSignature(): Promise<string> {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><path d="M30 140 C 70 40, 120 40, 130 120 S 190 170, 230 90 S 300 30, 320 110 C 330 150, 380 150, 420 90 S 520 60, 570 120" stroke="#111" stroke-width="5" fill="none" stroke-linecap="round"/></svg>';
  return (await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64');
}

/**
 * One complete report of the demo technician, three days ago, on the first done device of its Recruté lot: photos
 * uploaded and the report saved through the visit-report service, so its PV is a real one (stored, fingerprinted).
 */
export async function seedDemoReport(db: Db, storage: ObjectStorage, config: Pick<Config, 'PRODUCT_NAME' | 'CHARITY_NAME'>, technicianEmail: string): Promise<void> {
  const [technician] = await db
    .select({ id: t.technicians.id, userId: t.technicians.userId })
    .from(t.technicians)
    .where(eq(t.technicians.email, technicianEmail))
    .limit(1);
  if (!technician) return;
  const [visit] = await db
    .select({ missionId: t.missions.id, model: t.missions.defibrillatorModel, planned: t.technicianMissionData.plannedVisitDate })
    .from(t.technicianMissionData)
    .innerJoin(t.missions, eq(t.missions.id, t.technicianMissionData.missionId))
    .innerJoin(t.applications, and(eq(t.applications.batchId, t.missions.batchId), eq(t.applications.technicianId, technician.id), eq(t.applications.status, 'Recruté')))
    .where(and(eq(t.technicianMissionData.technicianId, technician.id), eq(t.technicianMissionData.isCompleted, true)))
    .orderBy(asc(t.missions.createdAt), asc(t.missions.id))
    .limit(1);
  if (!visit) return;
  const auth: AuthContext = {
    userId: technician.userId,
    email: technicianEmail,
    role: 'technician',
    technicianId: technician.id,
    technicianStatus: 'active',
    tokenHash: 'seed',
    lastSeenAt: new Date(),
    expiresAt: new Date(),
    absoluteExpiresAt: new Date(),
  };
  const reportId = crypto.randomUUID();
  const photoIds: string[] = [];
  for (const variant of [0, 1]) {
    const photoId = crypto.randomUUID();
    await uploadReportPhoto(db, storage, { auth, missionId: visit.missionId, photoId, reportId, buffer: await demoPhoto(variant) });
    photoIds.push(photoId);
  }
  const visitedAt = new Date(visit.planned ?? Date.now() - 3 * 86_400_000);
  visitedAt.setUTCHours(8, 30, 0, 0);
  const today = parisDay();
  const manufacturer = (visit.model ?? '').split(' - ')[0]?.toLowerCase() ?? '';
  const pads = SHIPMENT_ITEMS.find((item) => /électrodes adulte|Électrodes/i.test(item) && manufacturer && item.toLowerCase().includes(manufacturer)) ?? SHIPMENT_ITEMS[1]!;
  await saveFinalReport(db, storage, config, {
    auth,
    missionId: visit.missionId,
    body: {
      id: reportId,
      visitedAt: visitedAt.toISOString(),
      outcome: 'En fonctionnement',
      checklist: { generalCondition: 'ok', statusIndicator: 'ok', battery: 'ok', adultPads: 'issue', pediatricPads: 'na', signage: 'ok', cabinet: 'ok' },
      batteryExpiry: addMonthsToDay(today, 30),
      adultPadsExpiry: addMonthsToDay(today, 24),
      pediatricPadsPresent: false,
      pediatricPadsExpiry: null,
      consumablesReplaced: [pads],
      observations: 'Électrodes adultes remplacées (date de péremption dépassée). Batterie OK, autotest conforme, armoire propre et alarme fonctionnelle.',
      signerName: 'Karim Haddad, responsable du site',
      signedAt: new Date(visitedAt.getTime() + 40 * 60_000).toISOString(),
      signature: await demoSignature(),
      unsignedReason: null,
      photoIds,
    },
  });
}
