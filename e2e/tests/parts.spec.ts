import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, PHONE } from '../fixtures/accounts';
import { SCREENS_DIR, snap } from '../fixtures/screens';

/**
 * Parts follow expiry dates (issue 20): the admin selects a technician, opens the lot's proposed parcel (computed from
 * the devices' batteries and electrodes), creates and ships it; the technician sees the parts coming for each device.
 */

function dayInFuture(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

async function apiContext(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
}

interface PartsLot {
  admin: APIRequestContext;
  tech: APIRequestContext;
  email: string;
  password: string;
  technicianId: string;
  technicianName: string;
  batchId: string;
  title: string;
  stamp: string;
  devices: { missionId: string; title: string; serial: string }[];
}

/** A technician of our own, approved and trained (every module opened), signed in on its own API context. */
async function registerTechnician(baseURL: string, admin: APIRequestContext, stamp: string) {
  const tech = await apiContext(baseURL);
  const email = `e2e-parts-${stamp}@maillon.test`;
  const password = 'Colis-E2E-2026!';
  const registered = await tech.post('/api/technicians/register', {
    multipart: {
      firstName: 'Inès',
      lastName: 'Pièces',
      email,
      password,
      phone: '06 11 22 33 44',
      preferredRelayPoint: 'Relais Tabac du Marché, 75011 Paris',
      address: '5 rue de la Roquette',
      postalCode: '75011',
      city: 'Paris',
      country: 'France',
      departments: JSON.stringify(['75']),
      termsAccepted: 'true',
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { technicianId } = (await registered.json()) as { technicianId: string };
  expect((await admin.patch(`/api/technicians/${technicianId}/approve`, { data: {} })).status()).toBe(200);
  expect((await tech.post('/api/auth/login', { data: { email, password } })).ok()).toBe(true);
  for (const resource of (await (await tech.get('/api/learning-resources')).json()) as { id: string }[]) {
    expect((await tech.post(`/api/learning-resources/${resource.id}/view`, { data: { technicianId } })).ok()).toBe(true);
  }
  return { tech, email, password, technicianId, technicianName: 'Inès Pièces' };
}

/** A mission of one Zoll AED Plus on a site of Paris 11e in the lot (the registry gets its device); answers its id. */
async function createDeviceMission(
  admin: APIRequestContext,
  { batchId, title, serial, site, deadline }: { batchId: string; title: string; serial: string; site: readonly [string, string, number, number]; deadline: string },
): Promise<string> {
  const [name, location, latitude, longitude] = site;
  const mission = await admin.post('/api/missions', {
    data: {
      title,
      description: 'Maintenance préventive',
      location,
      department: '75',
      budget: 200,
      deadline,
      status: 'active',
      batchId,
      serialNumber: serial,
      clientName: name,
      defibrillatorModel: 'Zoll - AED Plus',
      visitType: 'Maintenance préventive',
      telSite: '01 23 45 67 89',
      completionLink: `https://formulaires.maillon.fr/completion?serie=${serial}`,
      postalCode: '75011',
      city: 'Paris',
      latitude,
      longitude,
    },
  });
  expect(mission.status(), await mission.text()).toBeLessThan(300);
  return ((await mission.json()) as { id: string }).id;
}

/** Writes a device's expiry dates in the registry, the device found by its serial number. */
async function setDeviceDates(admin: APIRequestContext, serial: string, dates: Record<string, string | boolean | null>) {
  const found = await admin.get(`/api/devices?search=${encodeURIComponent(serial)}`);
  expect(found.ok()).toBe(true);
  const [registryDevice] = (await found.json()) as { id: string }[];
  expect(registryDevice).toBeDefined();
  const patched = await admin.patch(`/api/devices/${registryDevice!.id}`, { data: dates });
  expect(patched.status(), await patched.text()).toBe(200);
}

const MAIRIE_DU_11E = ['Mairie du 11e', '12 place Léon Blum, 75011 Paris', 48.8574, 2.3795] as const;

/** A trained technician of our own who applied to a visible lot of two Zoll AED Plus with known expiry dates. */
async function createPartsLot(baseURL: string): Promise<PartsLot> {
  const admin = await apiContext(baseURL);
  expect((await admin.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
  const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
  const { tech, email, password, technicianId, technicianName } = await registerTechnician(baseURL, admin, stamp);

  const title = `Colis e2e ${stamp}`;
  const deadline = dayInFuture(20);
  const lotBody = { title, description: 'Lot de la recette des colis', price: 400, departments: ['75'], tags: ['Maintenance'], deadline };
  const lot = await admin.post('/api/mission-batches', { data: lotBody });
  expect(lot.status(), await lot.text()).toBeLessThan(300);
  const batchId = ((await lot.json()) as { id: string }).id;
  const sites = [MAIRIE_DU_11E, ['Gymnase Japy', '2 rue Japy, 75011 Paris', 48.8545, 2.3806]] as const;
  const devices: PartsLot['devices'] = [];
  for (const [k, site] of sites.entries()) {
    const serial = `SN-PARTS-${stamp}-${k}`;
    const deviceTitle = `Maintenance - ${site[0]} ${stamp}`;
    devices.push({ missionId: await createDeviceMission(admin, { batchId, title: deviceTitle, serial, site, deadline }), title: deviceTitle, serial });
  }
  // Expiry dates in the registry: the first device's battery expires before the visit + 90 days; the second's
  // electrodes too, and its battery date is unknown (« à vérifier »).
  const dates = [
    { batteryExpiry: dayInFuture(40), adultPadsExpiry: dayInFuture(500), pediatricPadsPresent: false },
    { batteryExpiry: null, adultPadsExpiry: dayInFuture(60), pediatricPadsPresent: false },
  ];
  for (const [k, device] of devices.entries()) await setDeviceDates(admin, device.serial, dates[k]!);
  expect((await admin.put(`/api/mission-batches/${batchId}`, { data: { ...lotBody, visibility: 'visible' } })).status()).toBe(200);
  const applied = await tech.post('/api/applications/batch', { data: { batchId, technicianId, status: 'En attente' } });
  expect(applied.status(), await applied.text()).toBeLessThan(300);
  return { admin, tech, email, password, technicianId, technicianName, batchId, title, stamp, devices };
}

async function loginAdmin(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/admin/login');
  await page.getByLabel('Mot de passe').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
}

test('parts: the admin selects a technician, creates and ships the proposed parcel; the technician sees the parts per device', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const lot = await createPartsLot(baseURL!);

  // Admin: select the technician in the ATS.
  await loginAdmin(page);
  await page.goto('/admin/dashboard?tab=missions-active');
  await page.getByPlaceholder('Titre, lieu, département, n° de série, modèle…').fill(lot.stamp);
  const card = page.getByRole('article', { name: lot.title });
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: 'Colis proposé' })).toHaveCount(0);
  await card.getByRole('button', { name: 'ATS' }).click();
  const ats = page.getByRole('dialog', { name: `Candidatures · ${lot.title}` });
  await ats.getByRole('article', { name: `Candidature de ${lot.technicianName}` }).getByRole('button', { name: 'Sélectionner' }).click();
  await expect(page.getByText('Technicien sélectionné avec succès', { exact: true })).toBeVisible();
  await ats.getByRole('button', { name: 'Fermer' }).last().click();
  await expect(ats).toBeHidden();

  // The technician plans the first visit in 10 days: the parcel should leave 7 days before.
  const planned = await lot.tech.post('/api/technician-mission-data', {
    data: { missionId: lot.devices[0]!.missionId, technicianId: lot.technicianId, plannedVisitDate: dayInFuture(10) },
  });
  expect(planned.status(), await planned.text()).toBe(200);

  // « Colis proposé »: one battery, one set of electrodes, the unknown battery date to check, the relay point.
  await card.getByRole('button', { name: 'Colis proposé' }).click();
  const dialog = page.getByRole('dialog', { name: `Colis proposé — ${lot.title}` });
  await expect(dialog.getByText('Relais Tabac du Marché, 75011 Paris')).toBeVisible();
  const items = dialog.getByRole('table');
  await expect(items.getByRole('row', { name: /Piles lithium CR123A x10 pour Zoll AED Plus/ })).toContainText('1');
  await expect(items.getByRole('row', { name: /Électrodes Zoll CPR-D-padz \(AED Plus\)/ })).toContainText(`n° ${lot.devices[1]!.serial}`);
  await expect(dialog.getByRole('heading', { name: /À vérifier/ })).toBeVisible();
  await expect(dialog.getByText(/Batterie — date de péremption inconnue/)).toBeVisible();
  await expect(dialog.getByText(`À expédier avant le ${dayInFuture(3).split('-').reverse().join('/')}`)).toBeVisible();
  await page.screenshot({ path: `${SCREENS_DIR}/parts-admin-proposed.png` });

  await dialog.getByRole('button', { name: 'Créer le colis' }).click();
  await expect(page.getByText('Colis créé en brouillon', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Brouillon')).toBeVisible();
  // The lot card carries the badge too: the parcel should leave 7 days before the first visit.
  await dialog.getByRole('button', { name: 'Fermer' }).click();
  await expect(card.getByText(`À expédier avant le ${dayInFuture(3).split('-').reverse().join('/')}`)).toBeVisible();
  await card.getByRole('button', { name: 'Colis proposé' }).click();
  // Creating again answers the same parcel: the API says so, and there is one parcel for the lot.
  const again = await lot.admin.post(`/api/admin/mission-batches/${lot.batchId}/parts/shipment`);
  expect(again.status()).toBe(200);
  const lotShipments = (await (await lot.admin.get(`/api/shipments/admin?batchId=${lot.batchId}`)).json()) as { id: string; content: string }[];
  expect(lotShipments).toHaveLength(1);
  expect(lotShipments[0]!.content).toBe('1 × Électrodes Zoll CPR-D-padz (AED Plus)\n1 × Piles lithium CR123A x10 pour Zoll AED Plus');

  await dialog.getByRole('button', { name: 'Marquer comme expédié' }).click();
  await expect(page.getByText('Expédition marquée comme expédiée', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Colis expédié')).toBeVisible();
  await expect(dialog.getByText('Aucune pour l’instant : elles apparaissent après les rapports de visite.')).toBeVisible();
  await page.screenshot({ path: `${SCREENS_DIR}/parts-admin-shipped.png` });
  await dialog.getByRole('button', { name: 'Fermer' }).click();
  await expect(card.getByText('Colis expédié')).toBeVisible();
  await snap(page, 'parts-admin-lot-card');

  // Expéditions lists the lot's proposal and the parcel, editable as any other.
  await page.goto(`/admin/dashboard?tab=shipments&batchId=${lot.batchId}`);
  const proposals = page.getByRole('region', { name: 'Colis proposés d’après les dates de péremption' });
  await expect(proposals.getByText(lot.title)).toBeVisible();
  await expect(page.getByText(/^1 × Électrodes Zoll CPR-D-padz \(AED Plus\)\s+1 × Piles lithium CR123A x10 pour Zoll AED Plus$/)).toBeVisible();
  await snap(page, 'parts-admin-shipments');

  // Réglages: the two delays and the consumables per model.
  await page.goto('/admin/dashboard?tab=settings');
  await expect(page.getByLabel("Marge d'expiration (jours)")).toHaveValue('90');
  await expect(page.getByLabel('Colis à expédier N jours avant la première visite')).toHaveValue('7');
  await expect(page.getByRole('cell', { name: 'Piles lithium CR123A x10 pour Zoll AED Plus' }).first()).toBeVisible();
  await page.getByRole('heading', { name: 'Colis et consommables' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS_DIR}/parts-admin-settings.png` });

  // Technician at 390×844: each device shows what is coming for it and that the parcel is on its way.
  const phone = await page.context().browser()!.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const techPage = await phone.newPage();
  await techPage.goto(`${baseURL}/technician/login`);
  await techPage.getByLabel('Email').fill(lot.email);
  await techPage.getByLabel('Mot de passe').fill(lot.password);
  await techPage.getByRole('button', { name: 'Se connecter' }).click();
  await expect(techPage).toHaveURL(/\/technician\/dashboard/);
  await techPage.goto(`${baseURL}/technician/dashboard?tab=missions`);
  const region = techPage.getByRole('region', { name: lot.title });
  const first = region.getByRole('article', { name: lot.devices[0]!.title, exact: true });
  const second = region.getByRole('article', { name: lot.devices[1]!.title, exact: true });
  await expect(first.getByText('1 pièce · colis en route')).toBeVisible();
  await expect(second.getByText('1 pièce · colis en route')).toBeVisible();
  await first.getByRole('button', { expanded: false }).click();
  const coming = first.getByRole('region', { name: 'Pièces prévues pour ce défibrillateur' });
  await expect(coming).toContainText('Piles lithium CR123A x10 pour Zoll AED Plus (batterie, colis en route)');
  const width = await techPage.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  await snap(techPage, 'parts-technician-phone');

  // The parcel received: the card says so.
  const received = await lot.tech.patch(`/api/shipments/${lotShipments[0]!.id}/receive`);
  expect(received.status(), await received.text()).toBe(200);
  await techPage.reload();
  await expect(region.getByRole('article', { name: lot.devices[1]!.title, exact: true }).getByText('1 pièce · colis reçu')).toBeVisible();
  await phone.close();
  await lot.admin.dispose();
  await lot.tech.dispose();
});

test('parts: Expéditions lists the proposed parcels 20 lots at a time, « Afficher plus de colis proposés » brings the next ones', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const admin = await apiContext(baseURL!);
  expect((await admin.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
  const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
  const { tech, technicianId } = await registerTechnician(baseURL!, admin, stamp);
  // 21 lots of one device each whose battery expires within the margin, recruited: more than a page. Their titles come
  // last in the lots' order, so they are on the last pages whatever the other journeys create meanwhile.
  const titles: string[] = [];
  for (let k = 0; k < 21; k += 1) {
    const title = `Zz colis en pages ${stamp} ${String(k).padStart(2, '0')}`;
    const lotBody = { title, description: 'Lot de la recette des pages de colis', price: 200, departments: ['75'], tags: ['Maintenance'], deadline: dayInFuture(20) };
    const lot = await admin.post('/api/mission-batches', { data: lotBody });
    expect(lot.status(), await lot.text()).toBeLessThan(300);
    const batchId = ((await lot.json()) as { id: string }).id;
    const serial = `SN-PAGES-${stamp}-${k}`;
    await createDeviceMission(admin, { batchId, title: `Maintenance - Mairie du 11e ${stamp} ${k}`, serial, site: MAIRIE_DU_11E, deadline: lotBody.deadline });
    await setDeviceDates(admin, serial, { batteryExpiry: dayInFuture(30), adultPadsExpiry: dayInFuture(500), pediatricPadsPresent: false });
    expect((await admin.put(`/api/mission-batches/${batchId}`, { data: { ...lotBody, visibility: 'visible' } })).status()).toBe(200);
    const applied = await tech.post('/api/applications/batch', { data: { batchId, technicianId, status: 'En attente' } });
    expect(applied.status(), await applied.text()).toBeLessThan(300);
    const applicationId = ((await applied.json()) as { id: string }).id;
    expect((await admin.patch(`/api/applications/${applicationId}/status`, { data: { status: 'Recruté' } })).status()).toBe(200);
    titles.push(title);
  }

  await loginAdmin(page);
  await page.goto('/admin/dashboard?tab=shipments');
  const proposals = page.getByRole('region', { name: 'Colis proposés d’après les dates de péremption' });
  const rows = proposals.getByRole('listitem');
  const more = proposals.getByRole('button', { name: 'Afficher plus de colis proposés' });
  await expect(rows).toHaveCount(20);
  await expect(more).toBeVisible();
  await more.click();
  await expect.poll(() => rows.count()).toBeGreaterThan(20);
  await snap(page, 'parts-admin-proposals-more');
  // Page after page up to the last (the button goes with it): each of our lots once, with its battery to send.
  while (await more.isVisible()) {
    const before = await rows.count();
    await more.click();
    await expect.poll(async () => (await rows.count()) > before || !(await more.isVisible())).toBe(true);
  }
  for (const title of titles) {
    const row = proposals.getByRole('listitem').filter({ hasText: title });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Inès Pièces · 1 pièce');
  }
  await admin.dispose();
  await tech.dispose();
});
