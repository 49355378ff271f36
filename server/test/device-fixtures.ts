import crypto from 'node:crypto';
import sharp from 'sharp';
import type { Db } from '../src/db/client';
import { applications, missionBatches, missions } from '../src/db/schema';
import { linkMissionToDevice } from '../src/modules/devices/devices.service';
import { recruitApplication } from '../src/modules/lifecycle/lifecycle.service';

/** Fixtures of the device registry and visit report tests: lots with devices, real images, complete reports. */

export interface DeviceSite {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  lat: number | null;
  lon: number | null;
}

export const SITES: DeviceSite[] = [
  { name: 'Mairie annexe', street: '3 place de la Mairie', postalCode: '75011', city: 'Paris', lat: 48.85905, lon: 2.38003 },
  { name: 'Gymnase Jean Moulin', street: '45 avenue Jean Moulin', postalCode: '93200', city: 'Saint-Denis', lat: 48.92964, lon: 2.35929 },
  { name: 'Piscine municipale', street: '21 boulevard des Sports', postalCode: '92100', city: 'Boulogne-Billancourt', lat: 48.8364, lon: 2.23907 },
];

let counter = 0;

/**
 * A visible lot whose missions carry the given serial numbers (linked to their devices as the admin's paths do),
 * with `technicianId` recruited on it unless told otherwise.
 */
export async function makeLotWithDevices(
  db: Db,
  { technicianId, serials, recruit = true, emailSite = true, model = 'Zoll - AED Plus' }: { technicianId: string; serials: string[]; recruit?: boolean; emailSite?: boolean; model?: string },
) {
  counter += 1;
  const [lot] = await db
    .insert(missionBatches)
    .values({ title: `Lot parc ${counter}`, description: 'Lot de test', priceCents: 30_000, departments: ['75'], tags: ['Maintenance'], visibility: 'visible' })
    .returning({ id: missionBatches.id, title: missionBatches.title });
  const missionIds: string[] = [];
  for (const [k, serialNumber] of serials.entries()) {
    const site = SITES[k % SITES.length]!;
    const [mission] = await db
      .insert(missions)
      .values({
        title: `Maintenance - ${site.name} ${counter}-${k + 1}`,
        batchId: lot!.id,
        status: 'active',
        serialNumber,
        clientName: `${site.name} ${site.city}`,
        defibrillatorModel: model,
        visitType: 'Maintenance préventive',
        telSite: '01 42 23 34 45',
        emailSite: emailSite ? `site-${counter}-${k + 1}@exemple.fr` : null,
        location: `${site.street}, ${site.postalCode} ${site.city}`,
        postalCode: site.postalCode,
        city: site.city,
        department: site.postalCode.slice(0, 2),
        latitude: site.lat,
        longitude: site.lon,
      })
      .returning({ id: missions.id });
    await db.transaction((tx) => linkMissionToDevice(tx, mission!.id));
    missionIds.push(mission!.id);
  }
  const [application] = await db.insert(applications).values({ batchId: lot!.id, technicianId }).returning({ id: applications.id });
  if (recruit) await db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
  return { batchId: lot!.id, title: lot!.title, missionIds, applicationId: application!.id };
}

/** A real JPEG (decodable), `width` × `height`, with an EXIF block holding a GPS position when asked. */
export async function realJpeg(width = 2400, height = 1600, { gps = false } = {}): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg({ quality: 80 });
  if (gps) {
    image.withExif({
      IFD0: { Make: 'TelephoneTest', Model: 'Maillon 1', Software: 'camera' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 7/1' },
    });
  }
  return image.toBuffer();
}

/** A real PNG with transparency. */
export async function realPng(width = 600, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 20, g: 90, b: 200, alpha: 0.6 } } }).png().toBuffer();
}

/** A drawn signature: a small transparent PNG with a stroke, as base64 (what signature_pad gives, without its prefix). */
export async function signatureBase64(): Promise<string> {
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="160"><path d="M10 120 C 80 10, 160 150, 390 40" stroke="black" stroke-width="4" fill="none"/></svg>');
  return (await sharp(svg).png().toBuffer()).toString('base64');
}

/** A day N days from today in France, YYYY-MM-DD. */
export function dayFromToday(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** A complete report body ("En fonctionnement"), with new ids. */
export async function completeReport(overrides: Record<string, unknown> = {}) {
  return {
    id: crypto.randomUUID(),
    visitedAt: new Date(Date.now() - 60 * 60_000).toISOString(),
    outcome: 'En fonctionnement',
    checklist: { generalCondition: 'ok', statusIndicator: 'ok', battery: 'ok', adultPads: 'ok', pediatricPads: 'ok', signage: 'issue', cabinet: 'ok' },
    batteryExpiry: dayFromToday(900),
    adultPadsExpiry: dayFromToday(500),
    pediatricPadsPresent: true,
    pediatricPadsExpiry: dayFromToday(400),
    consumablesReplaced: ['Électrodes Zoll CPR-D-padz (AED Plus)'],
    observations: 'Signalétique à remplacer : pictogramme décoloré.',
    signerName: 'Mme Claire Durand',
    signedAt: new Date(Date.now() - 30 * 60_000).toISOString(),
    signature: await signatureBase64(),
    unsignedReason: null,
    photoIds: [],
    ...overrides,
  };
}
