import { count, sql } from 'drizzle-orm';
import { DEFIBRILLATOR_MODELS, SHIPMENT_ITEMS } from '@maillon/common/reference-lists';
import { FORMATION_DONE, SYSTEM_LOT_TITLE } from '@maillon/common/constants';
import type { Db, DbOrTx } from '../client';
import * as t from '../schema';
import { hashPassword } from '../../lib/passwords';
import type { Config } from '../../config';
import type { ObjectStorage } from '../../lib/storage/object-storage';
import { seedDemoRegistry, seedDemoReport } from './demo-devices';

export const DEMO_ADMIN = { email: 'admin@maillon.fr', password: 'Maillon-Admin-2026' };
export const DEMO_TECHNICIAN = { email: 'technicien@maillon.fr', password: 'Maillon-Tech-2026' };

interface Site {
  city: string;
  postalCode: string;
  department: string;
  lat: number;
  lon: number;
}
const SITES: Record<string, Site> = {
  paris11: { city: 'Paris', postalCode: '75011', department: '75', lat: 48.85905, lon: 2.38003 },
  paris15: { city: 'Paris', postalCode: '75015', department: '75', lat: 48.84007, lon: 2.29284 },
  boulogne: { city: 'Boulogne-Billancourt', postalCode: '92100', department: '92', lat: 48.8364, lon: 2.23907 },
  saintDenis: { city: 'Saint-Denis', postalCode: '93200', department: '93', lat: 48.92964, lon: 2.35929 },
  lyon: { city: 'Lyon', postalCode: '69003', department: '69', lat: 45.75332, lon: 4.86943 },
  villeurbanne: { city: 'Villeurbanne', postalCode: '69100', department: '69', lat: 45.771, lon: 4.88907 },
  marseille: { city: 'Marseille', postalCode: '13008', department: '13', lat: 43.23772, lon: 5.37485 },
  aix: { city: 'Aix-en-Provence', postalCode: '13100', department: '13', lat: 43.53611, lon: 5.39863 },
  bordeaux: { city: 'Bordeaux', postalCode: '33000', department: '33', lat: 44.85762, lon: -0.57338 },
  pessac: { city: 'Pessac', postalCode: '33600', department: '33', lat: 44.79165, lon: -0.67646 },
  strasbourg: { city: 'Strasbourg', postalCode: '67000', department: '67', lat: 48.57126, lon: 7.76776 },
  nantes: { city: 'Nantes', postalCode: '44000', department: '44', lat: 47.23205, lon: -1.5482 },
  lille: { city: 'Lille', postalCode: '59000', department: '59', lat: 50.63186, lon: 3.04699 },
  toulouse: { city: 'Toulouse', postalCode: '31000', department: '31', lat: 43.59604, lon: 1.43209 },
};

const PLACES = [
  ['Pharmacie du Marché', '12 rue du Marché'],
  ['Mairie annexe', '3 place de la Mairie'],
  ['Gymnase Jean Moulin', '45 avenue Jean Moulin'],
  ['Collège Victor Hugo', '8 rue Victor Hugo'],
  ['Piscine municipale', '21 boulevard des Sports'],
  ['Centre commercial Les Halles', '101 rue de la République'],
  ['Gare routière', '2 place de la Gare'],
  ['Résidence seniors Les Tilleuls', '17 allée des Tilleuls'],
  ['Stade municipal', '60 route du Stade'],
  ['Bibliothèque centrale', '5 rue des Écoles'],
  ['Salle des fêtes', '9 place du Général de Gaulle'],
  ['Cabinet médical Pasteur', '33 rue Pasteur'],
] as const;

const VISIT_TYPES = ['Maintenance préventive', 'Maintenance curative', 'Installation', 'Maintenance'];

const day = 24 * 60 * 60 * 1000;
const inDays = (n: number) => {
  const d = new Date(Date.now() + n * day);
  d.setUTCHours(18, 0, 0, 0);
  return d;
};

let serial = 1000;
function missionValues(siteKey: keyof typeof SITES, index: number, extra: Partial<typeof t.missions.$inferInsert>) {
  const site = SITES[siteKey]!;
  const [place, street] = PLACES[index % PLACES.length]!;
  const model = DEFIBRILLATOR_MODELS[(index * 7 + serial) % DEFIBRILLATOR_MODELS.length]!;
  const visitType = VISIT_TYPES[index % VISIT_TYPES.length]!;
  serial += 1;
  const jitter = ((index % 5) - 2) * 0.006;
  return {
    title: `Maintenance - ${place} ${site.city}`,
    description: `${visitType} du défibrillateur installé à l'accueil.`,
    location: `${street}, ${site.postalCode} ${site.city}`,
    department: site.department,
    budgetCents: 15000,
    deadline: inDays(30 + index),
    tags: [visitType, model],
    status: 'active',
    serialNumber: `SN-${site.department}-${serial}`,
    clientName: `${place} ${site.city}`,
    defibrillatorModel: model,
    visitType,
    telSite: `01 4${index % 10} 2${index % 10} 3${index % 10} 4${index % 10}`,
    emailSite: index % 3 === 0 ? null : `contact${serial}@exemple.fr`,
    completionLink: `https://formulaires.maillon.fr/completion?serie=SN-${site.department}-${serial}`,
    observations: index % 4 === 0 ? 'Boîtier extérieur, prévoir un code d’accès.' : null,
    postalCode: site.postalCode,
    city: site.city,
    latitude: site.lat + jitter,
    longitude: site.lon - jitter,
    ...extra,
  } satisfies typeof t.missions.$inferInsert;
}

async function isEmpty(db: DbOrTx): Promise<boolean> {
  const tables = [t.technicians, t.missions, t.missionBatches, t.learningResources, t.jobs];
  for (const table of tables) {
    const [row] = await db.select({ n: count() }).from(table);
    if ((row?.n ?? 0) > 0) return false;
  }
  return true;
}

/** Real IBANs (French RIB key and mod-97 checksum right, ibantools-valid), so the demo's payout batches go through. */
const DEMO_IBANS = [
  'FR76 3000 6000 0112 3456 7890 189',
  'FR76 3000 6000 0112 3456 8850 101',
  'FR76 3000 6000 0112 3456 8310 102',
  'FR76 3000 6000 0112 3456 8740 103',
  'FR76 3000 6000 0112 3456 8200 104',
  'FR76 3000 6000 0112 3456 8630 105',
  'FR76 3000 6000 0112 3456 8090 106',
  'FR76 3000 6000 0112 3456 8520 107',
];

/**
 * Fills an empty database with a believable world; never touches a database that already has data. With the file store
 * and the configuration, the demo technician also gets a past visit with its complete report and PV.
 */
export async function seedDemoIfEmpty(
  db: Db,
  files?: { storage: ObjectStorage; config: Pick<Config, 'PRODUCT_NAME' | 'CHARITY_NAME'> },
): Promise<{ technicianEmail: string; technicianPassword: string } | null> {
  if (!(await isEmpty(db))) return null;
  const adminHash = await hashPassword(DEMO_ADMIN.password);
  const techHash = await hashPassword(DEMO_TECHNICIAN.password);

  const seeded = await db.transaction(async (tx) => {
    // Two instances starting on one empty database: the second waits here, then finds it filled.
    await tx.execute(sql`select pg_advisory_xact_lock(4242002)`);
    if (!(await isEmpty(tx))) return false;
    await tx.insert(t.users).values({ email: DEMO_ADMIN.email, passwordHash: adminHash, role: 'admin' }).onConflictDoNothing();

    const people = [
      { first: 'Camille', last: 'Laurent', email: DEMO_TECHNICIAN.email, status: 'active', deps: ['75', '92', '93'], site: 'paris11', trained: true },
      { first: 'Julien', last: 'Moreau', email: 'julien.moreau@exemple.fr', status: 'active', deps: ['69'], site: 'lyon', trained: true },
      { first: 'Sarah', last: 'Benali', email: 'sarah.benali@exemple.fr', status: 'active', deps: ['13'], site: 'marseille', trained: true },
      { first: 'Thomas', last: 'Girard', email: 'thomas.girard@exemple.fr', status: 'active', deps: ['33'], site: 'bordeaux', trained: false },
      { first: 'Léa', last: 'Fontaine', email: 'lea.fontaine@exemple.fr', status: 'pending', deps: ['44', '35'], site: 'nantes', trained: false },
      { first: 'Nicolas', last: 'Petit', email: 'nicolas.petit@exemple.fr', status: 'pending', deps: ['59'], site: 'lille', trained: false },
      { first: 'Marc', last: 'Dubois', email: 'marc.dubois@exemple.fr', status: 'inactive', deps: ['31'], site: 'toulouse', trained: true },
      { first: 'Emma', last: 'Rousseau', email: 'emma.rousseau@exemple.fr', status: 'active', deps: ['67'], site: 'strasbourg', trained: true },
    ] as const;

    const techIds: string[] = [];
    for (const [i, p] of people.entries()) {
      const site = SITES[p.site]!;
      const [user] = await tx
        .insert(t.users)
        .values({ email: p.email, passwordHash: techHash, role: 'technician' })
        .returning({ id: t.users.id });
      const [tech] = await tx
        .insert(t.technicians)
        .values({
          userId: user!.id,
          firstName: p.first,
          lastName: p.last,
          email: p.email,
          phone: `06 1${i} 2${i} 3${i} 4${i}`,
          address: `${10 + i} rue de la Paix`,
          city: site.city,
          postalCode: site.postalCode,
          departments: [...p.deps],
          iban: DEMO_IBANS[i] ?? null,
          siret: `8123456780001${i}`,
          companyName: `${p.last} Maintenance`,
          status: p.status,
          formationCompleted: p.trained,
          formationStatus: p.trained ? FORMATION_DONE : 'Formation incomplète',
          preferredRelayPoint: `Relais ${site.city} Centre, ${site.postalCode} ${site.city}`,
          comments: i === 0 ? 'Disponible en semaine, véhicule utilitaire.' : null,
          latitude: site.lat,
          longitude: site.lon,
        })
        .returning({ id: t.technicians.id });
      techIds.push(tech!.id);
    }
    const [camille, julien, sarah, thomas, , , , emma] = techIds as [string, string, string, string, string, string, string, string];

    const resources = await tx
      .insert(t.learningResources)
      .values([
        { title: 'La chaîne de survie', description: 'Les quatre maillons et le rôle du défibrillateur.', type: 'video', url: 'https://www.youtube.com/watch?v=chaine-de-survie', duration: 8 },
        { title: 'Réglementation des DAE en France', description: 'Obligations des ERP, registre Géo’DAE et maintenance.', type: 'pdf', url: 'https://www.service-public.fr/professionnels-entreprises/vosdroits/F35309', duration: 15 },
        { title: 'Contrôle visuel d’un défibrillateur', description: 'Voyants, date de péremption des électrodes et de la batterie.', type: 'document', url: 'https://maillon.fr/formation/controle-visuel', duration: 12 },
        { title: 'Remplacer électrodes et batterie', description: 'Procédure pas à pas, modèles courants.', type: 'video', url: 'https://maillon.fr/formation/consommables', duration: 10 },
        { title: 'Quiz sécurité électrique', description: 'Évaluez vos connaissances avant votre première mission.', type: 'interactive', url: 'https://maillon.fr/formation/quiz', duration: 5 },
        { title: 'Rédiger un rapport de visite', description: 'Ce qu’attend le client et comment remplir le lien de complétion.', type: 'other', url: 'https://maillon.fr/formation/rapport', duration: 6 },
      ])
      .returning({ id: t.learningResources.id });
    const viewers = people.map((p, i) => (p.trained ? resources : i === 3 ? resources.slice(0, 3) : []));
    const views = viewers.flatMap((list, i) => list.map((r, k) => ({ resourceId: r.id, technicianId: techIds[i]!, viewedAt: new Date(Date.now() - (20 - k) * day) })));
    if (views.length) await tx.insert(t.resourceViews).values(views);

    type LotSpec = {
      title: string;
      sites: (keyof typeof SITES)[];
      count: number;
      price: number;
      visibility: 'visible' | 'invisible';
      status: 'active' | 'completed';
      tags: string[];
    };
    const lotSpecs: LotSpec[] = [
      { title: 'Paris Est - maintenance préventive', sites: ['paris11', 'saintDenis'], count: 8, price: 960, visibility: 'visible', status: 'active', tags: ['Maintenance préventive', 'Électrodes'] },
      { title: 'Hauts-de-Seine - contrôle annuel', sites: ['boulogne'], count: 6, price: 720, visibility: 'visible', status: 'active', tags: ['Contrôle'] },
      { title: 'Lyon Centre', sites: ['lyon'], count: 7, price: 840, visibility: 'visible', status: 'active', tags: ['Maintenance', 'Batteries'] },
      { title: 'Marseille et Aix-en-Provence', sites: ['marseille', 'aix'], count: 6, price: 780, visibility: 'visible', status: 'active', tags: ['Installation'] },
      { title: 'Bordeaux Métropole', sites: ['bordeaux', 'pessac'], count: 5, price: 600, visibility: 'visible', status: 'active', tags: ['Maintenance'] },
      { title: 'Strasbourg - nouveaux sites', sites: ['strasbourg'], count: 5, price: 650, visibility: 'invisible', status: 'active', tags: ['Installation'] },
      { title: 'Paris Ouest - campagne de printemps', sites: ['paris15'], count: 6, price: 720, visibility: 'visible', status: 'completed', tags: ['Maintenance préventive'] },
      { title: 'Villeurbanne - écoles', sites: ['villeurbanne'], count: 5, price: 600, visibility: 'visible', status: 'completed', tags: ['Maintenance'] },
    ];
    const [system] = await tx
      .insert(t.missionBatches)
      .values({ title: SYSTEM_LOT_TITLE, description: 'Missions annulées à réaffecter', isSystem: true, visibility: 'invisible' })
      .returning({ id: t.missionBatches.id });

    const lots: { id: string; missionIds: string[]; spec: LotSpec }[] = [];
    let missionIndex = 0;
    for (const spec of lotSpecs) {
      const departments = [...new Set(spec.sites.map((s) => SITES[s]!.department))];
      const [lot] = await tx
        .insert(t.missionBatches)
        .values({
          title: spec.title,
          description: `${spec.count} défibrillateurs à contrôler : ${spec.tags.join(', ').toLowerCase()}.`,
          priceCents: spec.price * 100,
          departments,
          tags: spec.tags,
          deadline: inDays(spec.status === 'completed' ? -10 : 45),
          visibility: spec.visibility,
          status: spec.status,
          defibrillatorsSum: spec.count,
          amountPerDefibCents: Math.round((spec.price * 100) / spec.count),
        })
        .returning({ id: t.missionBatches.id });
      const values = Array.from({ length: spec.count }, (_, k) =>
        missionValues(spec.sites[k % spec.sites.length]!, missionIndex++, { batchId: lot!.id }),
      );
      const inserted = await tx.insert(t.missions).values(values).returning({ id: t.missions.id });
      lots.push({ id: lot!.id, missionIds: inserted.map((m) => m.id), spec });
    }
    // Unsorted missions ("À trier").
    await tx.insert(t.missions).values(
      (['nantes', 'lille', 'toulouse', 'paris11', 'lyon', 'bordeaux', 'marseille', 'strasbourg'] as const).map((s, k) =>
        missionValues(s, missionIndex++ + k, {}),
      ),
    );

    const [parisEst, hautsDeSeine, lyon, marseille, , , parisOuest, villeurbanne] = lots as [
      (typeof lots)[number], (typeof lots)[number], (typeof lots)[number], (typeof lots)[number],
      (typeof lots)[number], (typeof lots)[number], (typeof lots)[number], (typeof lots)[number],
    ];

    // Applications.
    await tx.insert(t.applications).values([
      { batchId: parisEst.id, technicianId: camille, status: 'Recruté', appliedAt: new Date(Date.now() - 12 * day), adminComment: 'Merci de prévoir les électrodes adultes pour les 3 premiers sites.' },
      { batchId: hautsDeSeine.id, technicianId: camille, status: 'En attente', appliedAt: new Date(Date.now() - 2 * day) },
      { batchId: lyon.id, technicianId: julien, status: 'Recruté', appliedAt: new Date(Date.now() - 6 * day) },
      { batchId: marseille.id, technicianId: sarah, status: 'En attente', appliedAt: new Date(Date.now() - 1 * day) },
      { batchId: lyon.id, technicianId: emma, status: 'Refusé', appliedAt: new Date(Date.now() - 7 * day) },
      { batchId: parisOuest.id, technicianId: camille, status: 'Terminé', appliedAt: new Date(Date.now() - 60 * day) },
      { batchId: villeurbanne.id, technicianId: julien, status: 'Terminé', appliedAt: new Date(Date.now() - 40 * day) },
    ]);
    void thomas;

    // Progress: Paris Est 3 of 8 done with dates planned; Paris Ouest all done; Villeurbanne 4 of 5 done.
    const progress = [
      ...parisEst.missionIds.map((missionId, k) => ({
        missionId,
        technicianId: camille,
        isCompleted: k < 3,
        plannedVisitDate: k < 5 ? inDays(k - 3) : null,
        technicianComments: k === 0 ? 'Électrodes remplacées, batterie OK.' : null,
      })),
      ...parisOuest.missionIds.map((missionId) => ({ missionId, technicianId: camille, isCompleted: true, plannedVisitDate: inDays(-30) })),
      ...villeurbanne.missionIds.map((missionId, k) => ({ missionId, technicianId: julien, isCompleted: k < 4, plannedVisitDate: inDays(-20) })),
    ];
    await tx.insert(t.technicianMissionData).values(progress);
    await tx.update(t.missionBatches).set({ defibrillatorsDone: 3 }).where(eqId(parisEst.id));
    await tx.update(t.missionBatches).set({ defibrillatorsDone: 6 }).where(eqId(parisOuest.id));
    await tx.update(t.missionBatches).set({ defibrillatorsDone: 4 }).where(eqId(villeurbanne.id));
    for (const id of parisOuest.missionIds) await tx.update(t.missions).set({ status: 'completed' }).where(eqMission(id));
    for (const id of villeurbanne.missionIds.slice(0, 4)) await tx.update(t.missions).set({ status: 'completed' }).where(eqMission(id));
    // The undone Villeurbanne device went to the system lot when the lot was finished.
    await tx.update(t.missions).set({ status: 'cancelled', batchId: system!.id, originBatchId: villeurbanne.id }).where(eqMission(villeurbanne.missionIds[4]!));
    // A finished lot keeps the figures it had at its finish (5 devices, 4 done).
    await tx.update(t.missionBatches).set({ defibrillatorsSum: 1 }).where(eqId(system!.id));

    // Invoices and transfers.
    await tx.insert(t.invoices).values([
      { technicianId: camille, batchId: parisEst.id, missionTitle: parisEst.spec.title, status: 'Mission à terminer', batchPriceCents: 96000, initialAmountCents: 96000, amountCents: 96000, validatedAmountCents: 36000, progression: '3/8' },
      { technicianId: julien, batchId: lyon.id, missionTitle: lyon.spec.title, status: 'Mission à terminer', batchPriceCents: 84000, initialAmountCents: 84000, amountCents: 84000, validatedAmountCents: 0, progression: '0/7' },
      { technicianId: julien, batchId: villeurbanne.id, missionTitle: villeurbanne.spec.title, status: 'Facture à soumettre', batchPriceCents: 60000, initialAmountCents: 60000, amountCents: 60000, validatedAmountCents: 48000, progression: '4/5' },
    ]);
    const [paid] = await tx
      .insert(t.invoices)
      .values({ technicianId: camille, batchId: parisOuest.id, missionTitle: parisOuest.spec.title, status: 'Facture envoyée', batchPriceCents: 72000, initialAmountCents: 72000, amountCents: 72000, validatedAmountCents: 72000, progression: '6/6', reference: 'FAC-2026-014', invoiceDate: inDays(-8) })
      .returning({ id: t.invoices.id });
    await tx.insert(t.transfers).values({ technicianId: camille, batchId: parisOuest.id, invoiceId: paid!.id, status: 'Effectué', invoiceRef: 'FAC-2026-014', transferRef: 'VIR-2026-0042', bankAccountLast4: '0189', amountCents: 72000, transferDate: inDays(-3) });
    await tx.update(t.technicians).set({ totalEarningsCents: 72000, completedMissions: 1 }).where(eqTech(camille));
    await tx.update(t.technicians).set({ completedMissions: 1 }).where(eqTech(julien));

    // Shipments.
    await tx.insert(t.shipments).values([
      { batchId: parisEst.id, technicianId: camille, missionTitle: parisEst.spec.title, status: 'in_transit', trackingNumber: 'MR84512369', shippedDate: inDays(-2), destination: 'Relais Paris Centre, 75011 Paris', destinationPostalCode: '75011', content: `${SHIPMENT_ITEMS[0]}, ${SHIPMENT_ITEMS[1]}` },
      { batchId: parisEst.id, technicianId: camille, missionTitle: parisEst.spec.title, status: 'delivered', trackingNumber: 'MR84500012', shippedDate: inDays(-9), deliveredDate: inDays(-7), destination: 'Relais Paris Centre, 75011 Paris', destinationPostalCode: '75011', content: SHIPMENT_ITEMS[6] ?? 'Piles' },
      { batchId: lyon.id, technicianId: julien, missionTitle: lyon.spec.title, status: 'draft', destination: 'Relais Lyon Centre, 69003 Lyon', destinationPostalCode: '69003', content: SHIPMENT_ITEMS[3] ?? 'Électrodes' },
      { batchId: parisOuest.id, technicianId: camille, missionTitle: parisOuest.spec.title, status: 'delivered', trackingNumber: 'MR83990154', shippedDate: inDays(-50), deliveredDate: inDays(-47), destination: 'Relais Paris Centre, 75011 Paris', destinationPostalCode: '75011', content: SHIPMENT_ITEMS[2] ?? 'Électrodes' },
    ]);

    // Visits awaiting moderation.
    const jobSites = ['nantes', 'lille', 'toulouse', 'paris15', 'aix', 'pessac', 'villeurbanne', 'boulogne'] as const;
    await tx.insert(t.jobs).values(
      jobSites.map((s, k) => {
        const m = missionValues(s, 100 + k, {});
        return {
          serialNumber: m.serialNumber as string,
          clientName: m.clientName as string,
          defibrillatorModel: m.defibrillatorModel as string,
          visitType: m.visitType as string,
          department: m.department as string,
          completionLink: m.completionLink as string,
          address: m.location as string,
          postalCode: m.postalCode,
          city: m.city,
          telSite: m.telSite,
          emailSite: m.emailSite,
          observations: m.observations,
          latitude: m.latitude,
          longitude: m.longitude,
          source: k % 2 === 0 ? 'geodae' : 'manual',
          status: k >= 6 ? 'refused' : 'pending',
        };
      }),
    );
    return true;
  });
  if (!seeded) return null;
  await seedDemoRegistry(db);
  if (files) await seedDemoReport(db, files.storage, files.config, DEMO_TECHNICIAN.email);
  return { technicianEmail: DEMO_TECHNICIAN.email, technicianPassword: DEMO_TECHNICIAN.password };
}

import { eq } from 'drizzle-orm';
const eqId = (id: string) => eq(t.missionBatches.id, id);
const eqMission = (id: string) => eq(t.missions.id, id);
const eqTech = (id: string) => eq(t.technicians.id, id);
