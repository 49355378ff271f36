import { expect, request as playwrightRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ADMIN, PHONE } from '../fixtures/accounts';
import { SCREENS_DIR, snap } from '../fixtures/screens';

/**
 * Issue 18: nearby work and maps. A technician living in Annecy finds the nearest lot first, sees how far it is,
 * opens the map, taps the lot and applies from its popup; on a lot where it is recruited (around Chambéry) it opens
 * the route map. The admin selects « À trier » missions around Brest with a rectangle and moves them into a lot.
 * No tile server is reachable here: the maps show the bundled outline of France only. Everything is created here
 * (places without demo data), so the other journeys are untouched.
 */

const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
const LOT_NEAR = `Lot Annecy ${stamp}`;
const LOT_ROUTE = `Lot Chambéry ${stamp}`;

function dayInFuture(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function adminContext(baseURL: string): Promise<APIRequestContext> {
  const request = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
  expect((await request.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
  return request;
}

type Site = { name: string; postalCode: string; city: string; lat?: number; lon?: number };

/** A visible lot of active missions (sites with coordinates, or a postal code only: approximate). */
async function createLot(admin: APIRequestContext, title: string, department: string, sites: Site[], visible = true) {
  const deadline = dayInFuture(25);
  const body = { title, description: 'Lot de la recette cartes', price: 520, departments: [department], tags: ['Maintenance'], deadline };
  const lot = await admin.post('/api/mission-batches', { data: body });
  expect(lot.status(), await lot.text()).toBeLessThan(300);
  const batchId = ((await lot.json()) as { id: string }).id;
  const ids: string[] = [];
  for (const [k, site] of sites.entries()) {
    const mission = await admin.post('/api/missions', {
      data: {
        title: `Maintenance - ${site.name} ${stamp}`,
        description: 'Maintenance préventive',
        location: `${k + 1} place de la Mairie, ${site.postalCode} ${site.city}`,
        department,
        budget: 150,
        deadline,
        status: 'active',
        batchId,
        serialNumber: `SN-MAP-${stamp}-${title.length}-${k}`,
        clientName: site.name,
        defibrillatorModel: 'ZOLL - AED Plus',
        postalCode: site.postalCode,
        city: site.city,
        ...(site.lat !== undefined ? { latitude: site.lat, longitude: site.lon } : {}),
      },
    });
    expect(mission.status(), await mission.text()).toBeLessThan(300);
    ids.push(((await mission.json()) as { id: string }).id);
  }
  if (visible) {
    const shown = await admin.put(`/api/mission-batches/${batchId}`, { data: { ...body, visibility: 'visible' } });
    expect(shown.status(), await shown.text()).toBe(200);
  }
  return { batchId, missionIds: ids };
}

/** A technician of Annecy, approved and trained, recruited on the Chambéry lot. */
async function setUp(baseURL: string) {
  const origin = new URL(baseURL).origin;
  const admin = await adminContext(baseURL);
  const tech = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  const email = `e2e-cartes-${stamp}@maillon.test`;
  const password = 'Cartes-E2E-2026!';
  const registered = await tech.post('/api/technicians/register', {
    multipart: {
      firstName: 'Chloé',
      lastName: 'Carto',
      email,
      password,
      address: '1 rue de l’Hôtel de Ville',
      postalCode: '74000',
      city: 'Annecy',
      country: 'France',
      departments: JSON.stringify(['74', '73']),
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

  const near = await createLot(admin, LOT_NEAR, '74', [
    { name: 'Annecy Bonlieu', postalCode: '74000', city: 'Annecy', lat: 45.9035, lon: 6.1267 },
    { name: 'Annecy-le-Vieux', postalCode: '74940', city: 'Annecy', lat: 45.9197, lon: 6.1434 },
    // Known by its postal code only: approximate.
    { name: 'Seynod', postalCode: '74600', city: 'Seynod' },
  ]);
  const route = await createLot(admin, LOT_ROUTE, '73', [
    { name: 'Chambéry gare', postalCode: '73000', city: 'Chambéry', lat: 45.5708, lon: 5.9197 },
    { name: 'Aix-les-Bains', postalCode: '73100', city: 'Aix-les-Bains', lat: 45.6885, lon: 5.9153 },
    { name: 'Montmélian', postalCode: '73800', city: 'Montmélian', lat: 45.5017, lon: 6.0458 },
    { name: 'La Motte-Servolex', postalCode: '73290', city: 'La Motte-Servolex' },
  ]);
  const applied = await tech.post('/api/applications/batch', { data: { batchId: route.batchId, technicianId, status: 'En attente' } });
  expect(applied.status(), await applied.text()).toBeLessThan(300);
  const applicationId = ((await applied.json()) as { id: string }).id;
  expect((await admin.patch(`/api/applications/${applicationId}/status`, { data: { status: 'Recruté' } })).status()).toBe(200);
  // Montmélian is already done.
  const done = await tech.post('/api/technician-mission-data', { data: { missionId: route.missionIds[2], technicianId, isCompleted: true } });
  expect(done.status(), await done.text()).toBeLessThan(300);
  await tech.dispose();
  return { admin, email, password, technicianId, near };
}

async function loginTechnician(page: Page, email: string, password: string) {
  await page.setViewportSize(PHONE);
  await page.goto('/technician/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/technician\/dashboard/);
}

async function expectNoHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'pas de défilement horizontal').toBeLessThanOrEqual(PHONE.width);
}

test.describe('maps (technician, phone)', () => {
  test('nearest lots first with their distance, the map, a popup to apply; the route map of a recruited lot', async ({ page, baseURL }) => {
    const world = await setUp(baseURL!);
    await loginTechnician(page, world.email, world.password);
    await expect(page.getByRole('heading', { name: 'Trouver des missions', level: 1 })).toBeVisible();

    // Most recent first, then « Plus proches »: the Annecy lot leads, with its distance and round trip.
    const sort = page.getByLabel('Trier par');
    await sort.selectOption('recent');
    await sort.selectOption('nearest');
    await expect(sort.locator('option:checked')).toHaveText('Plus proches');
    const cards = page.getByRole('list', { name: 'Lots de missions' }).getByRole('listitem');
    await expect(cards.first()).toContainText(LOT_NEAR);
    await expect(cards.first()).toContainText(/à (< 1|[\d,]+) km\s*· tournée ≈ [\d,]+ km/);
    await expect(cards.nth(1)).toContainText(LOT_ROUTE);
    const api = await page.request.get(`/api/mission-batches/available-for-application?technicianId=${world.technicianId}&sort=nearest&limit=3`);
    const nearest = (await api.json()) as { title: string; distance: number }[];
    expect(nearest.map((l) => l.title).slice(0, 2)).toEqual([LOT_NEAR, LOT_ROUTE]);
    expect(nearest[0]!.distance).toBeLessThan(nearest[1]!.distance);
    await expectNoHorizontalScroll(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'maps-technician-nearest-phone');

    // Within 25 km: the Chambéry lot (about 40 km away) is left out.
    await page.getByLabel('Distance').selectOption('25');
    await expect(cards.filter({ hasText: LOT_ROUTE })).toHaveCount(0);
    await expect(cards.first()).toContainText(LOT_NEAR);

    // The map: tap the lot, apply from its popup.
    await page.getByRole('radio', { name: 'Carte' }).click();
    const map = page.getByRole('region', { name: 'Carte des lots de missions' });
    await expect(map).toBeVisible();
    await expect(map.getByRole('button', { name: 'Votre adresse' })).toBeVisible();
    const marker = map.getByRole('button', { name: `Lot ${LOT_NEAR}` });
    await marker.click();
    const popup = page.getByRole('group', { name: `Lot ${LOT_NEAR}` });
    await expect(popup).toBeVisible();
    await expect(popup).toContainText(/à (< 1|[\d,]+) km/);
    await expectNoHorizontalScroll(page);
    await snap(page, 'maps-technician-lot-popup-phone');
    await map.screenshot({ path: `${SCREENS_DIR}/maps-technician-lot-popup-map-phone.png` });
    await popup.getByRole('button', { name: 'Postuler' }).click();
    await expect(page.getByText('Candidature envoyée avec succès', { exact: true })).toBeVisible();
    await expect(popup.getByRole('button', { name: 'Vous avez postulé' })).toBeDisabled();
    const applications = (await (await page.request.get(`/api/applications?technicianId=${world.technicianId}`)).json()) as { batchId: string; status: string }[];
    expect(applications.find((a) => a.batchId === world.near.batchId)?.status).toBe('En attente');
    await expect(page.getByText('Position approximative (code postal)')).toBeVisible();
    await snap(page, 'maps-technician-applied-phone');

    // The recruited lot: sort the route, then its map with numbered devices, the done one greyed.
    await page.goto('/technician/dashboard?tab=missions');
    const lot = page.getByRole('region', { name: LOT_ROUTE });
    await expect(lot.getByRole('heading', { name: 'Défibrillateurs à traiter' })).toBeVisible();
    await lot.getByRole('button', { name: 'Trier pour économiser ma route' }).click();
    const sortedToast = page.locator('li').filter({ hasText: /défibrillateurs? triés? par proximité/ });
    await expect(sortedToast).toBeVisible();
    // Out of the way of the map's screenshot.
    await sortedToast.getByRole('button', { name: 'Fermer' }).click();
    await expect(sortedToast).toHaveCount(0);
    await lot.getByRole('button', { name: 'Voir la carte de la tournée' }).click();
    const routeMap = lot.getByRole('region', { name: 'Carte des défibrillateurs du lot' });
    await expect(routeMap).toBeVisible();
    await expect(lot.getByText(/^Tournée : [\d,]+ km · environ .+ de route \(estimation\) pour 3 défibrillateurs à faire$/)).toBeVisible();
    for (const n of [1, 2, 3]) await expect(routeMap.getByRole('button', { name: new RegExp(`^${n}\\. `) })).toBeVisible();
    await expect(routeMap.getByRole('button', { name: /^4\. .*\(effectué\)/ })).toBeVisible();
    await expect(routeMap.getByRole('button', { name: /position approximative/ })).toHaveCount(1);
    await expect(routeMap.getByRole('button', { name: 'Votre adresse' })).toBeVisible();
    // The numbers follow the list: the first card is device 1 of the map.
    const firstDevice = await lot.getByRole('article').first().innerText();
    const firstOnMap = await routeMap.getByRole('button', { name: /^1\. / }).getAttribute('aria-label');
    expect(firstDevice).toContain(firstOnMap!.replace(/^1\. /, '').replace(/ \(position approximative\)$/, ''));
    await routeMap.scrollIntoViewIfNeeded();
    await expectNoHorizontalScroll(page);
    await snap(page, 'maps-technician-route-phone');
    await routeMap.screenshot({ path: `${SCREENS_DIR}/maps-technician-route-map-phone.png` });
    await world.admin.dispose();
  });
});

test.describe('maps (admin, desktop)', () => {
  test('select « À trier » missions with a rectangle on the map and move them into a lot with Organiser', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const admin = await adminContext(baseURL!);
    const target = await createLot(admin, `Lot Brest ${stamp}`, '29', [], false);
    const brest = [
      { name: 'Brest port', lat: 48.3826, lon: -4.4869 },
      { name: 'Brest gare', lat: 48.3883, lon: -4.4777 },
      { name: 'Brest Recouvrance', lat: 48.3854, lon: -4.5022 },
    ];
    const unsorted: string[] = [];
    for (const [k, site] of brest.entries()) {
      const created = await admin.post('/api/missions', {
        data: { title: `À trier ${site.name} ${stamp}`, description: 'Visite', location: `${k + 1} rue de Siam, 29200 Brest`, department: '29', budget: 150, deadline: dayInFuture(30), status: 'active', postalCode: '29200', city: 'Brest', latitude: site.lat, longitude: site.lon },
      });
      expect(created.status(), await created.text()).toBe(201);
      unsorted.push(((await created.json()) as { id: string }).id);
    }

    await page.goto('/admin/login');
    await page.getByLabel('Mot de passe').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard/);
    await page.goto('/admin/dashboard?tab=missions-active');
    await expect(page.getByRole('heading', { name: 'Missions & Lots', level: 1 })).toBeVisible();
    await page.getByRole('radio', { name: 'Carte' }).click();
    const map = page.getByRole('region', { name: 'Carte des missions à trier et des lots' });
    await expect(map).toBeVisible();
    await expect(page.getByText('Position approximative (code postal)')).toBeVisible();
    await snap(page, 'maps-admin-france');

    // At the scale of France the three Brest missions form one group: it zooms onto them.
    const titles = brest.map((site) => `À trier ${site.name} ${stamp}`);
    const markerOf = (title: string) => map.getByRole('button', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(À trier\\)`) });
    if (!(await markerOf(titles[0]!).isVisible())) {
      await page.getByRole('radio', { name: 'Déplacer la carte' }).click();
      const groups = map.getByRole('button', { name: /missions proches : zoomer$/ });
      // The westernmost group is Brest's.
      const boxes = await Promise.all((await groups.all()).map(async (g) => ({ g, box: await g.boundingBox() })));
      boxes.sort((a, b) => a.box!.x - b.box!.x);
      await boxes[0]!.g.click();
    }
    for (const title of titles) await expect(markerOf(title)).toBeVisible();

    // Draw a rectangle around them.
    await page.getByRole('radio', { name: 'Sélection rectangle' }).click();
    const boxes = await Promise.all(titles.map((title) => markerOf(title).boundingBox()));
    const left = Math.min(...boxes.map((b) => b!.x)) - 25;
    const top = Math.min(...boxes.map((b) => b!.y)) - 25;
    const right = Math.max(...boxes.map((b) => b!.x + b!.width)) + 25;
    const bottom = Math.max(...boxes.map((b) => b!.y + b!.height)) + 25;
    await page.mouse.move(left, top);
    await page.mouse.down();
    await page.mouse.move((left + right) / 2, (top + bottom) / 2, { steps: 5 });
    await page.mouse.move(right, bottom, { steps: 5 });
    await page.mouse.up();
    const organise = page.getByRole('button', { name: 'Organiser la sélection (3)' });
    await expect(organise).toBeEnabled();
    for (const title of titles) await expect(markerOf(title)).toHaveAttribute('aria-label', /sélectionnée$/);
    await snap(page, 'maps-admin-rectangle-selection');
    // From the keyboard, Enter on a mission takes it out of the selection, and puts it back.
    await markerOf(titles[0]!).press('Enter');
    await expect(page.getByRole('button', { name: 'Organiser la sélection (2)' })).toBeEnabled();
    await expect(markerOf(titles[0]!)).not.toHaveAttribute('aria-label', /sélectionnée$/);
    await markerOf(titles[0]!).press('Enter');
    await expect(organise).toBeEnabled();

    await organise.click();
    const dialog = page.getByRole('dialog', { name: 'Organiser les missions' });
    await expect(dialog.getByText('3 missions sélectionnées')).toBeVisible();
    await dialog.getByLabel('Déplacer vers').selectOption({ label: `Lot Brest ${stamp} (0 défibrillateur)` });
    await dialog.getByRole('button', { name: 'Déplacer' }).click();
    await expect(page.getByText('Missions déplacées avec succès', { exact: true })).toBeVisible();

    // Through the API: the three missions are in the lot, whose geometry follows; on the map they take its colour.
    const moved = await admin.get(`/api/missions?batchId=${target.batchId}&limit=10`);
    expect(((await moved.json()) as { id: string }[]).map((m) => m.id).sort()).toEqual([...unsorted].sort());
    await expect(map.getByRole('button', { name: new RegExp(`\\(lot Lot Brest ${stamp}\\)$`) })).toHaveCount(3);
    await expect(page.getByRole('list', { name: 'Légende' })).toContainText(`Lot Brest ${stamp} (3)`);
    await snap(page, 'maps-admin-moved');

    // Searching the view reads the active lots' missions nearest its centre (decision 038): Brest's lot is there.
    const searched = page.waitForResponse((r) => r.url().includes('/api/missions/map?') && r.url().includes('south='));
    await page.getByRole('button', { name: 'Chercher dans cette zone' }).click();
    expect((await searched).status()).toBe(200);
    await expect(map.getByRole('button', { name: new RegExp(`\\(lot Lot Brest ${stamp}\\)$`) })).toHaveCount(3);
    await expect(page.getByText(/missions? sur la carte/)).not.toContainText('d’autres missions');
    await admin.dispose();
  });
  test('a map with more missions than it draws one by one shows them in groups per sector, opened down to the missions (decisions 041, 053)', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    const admin = await adminContext(baseURL!);
    // 1 501 « À trier » missions, three times as many as the map draws one by one over a region (500, decision 053), on
    // a grid of 0.2° around Strasbourg.
    const total = 1501;
    const ids: string[] = [];
    const create = async (i: number) => {
      const created = await admin.post('/api/missions', {
        data: {
          title: `Secteur ${i} ${stamp}`,
          description: 'Visite',
          location: `${i} rue du Dôme, 67000 Strasbourg`,
          department: '67',
          budget: 100,
          deadline: dayInFuture(30),
          status: 'active',
          postalCode: '67000',
          city: 'Strasbourg',
          latitude: 48.5 + (i % 39) * 0.0051,
          longitude: 7.65 + Math.floor(i / 39) * 0.0051,
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      ids.push(((await created.json()) as { id: string }).id);
    };
    for (let i = 0; i < total; i += 12)
      await Promise.all(Array.from({ length: Math.min(12, total - i) }, (_, k) => create(i + k)));

    try {
      await page.goto('/admin/login');
      await page.getByLabel('Mot de passe').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await expect(page).toHaveURL(/\/admin\/dashboard/);
      await page.goto('/admin/dashboard?tab=missions-active');
      await page.getByRole('radio', { name: 'Carte' }).click();
      const map = page.getByRole('region', { name: 'Carte des missions à trier et des lots' });
      await expect(page.getByText(/missions sur la carte, regroupées par secteur : ouvrez un groupe/)).toBeVisible();
      await expect(page.getByRole('list', { name: 'Légende' })).toContainText('Secteur de missions à trier');
      // Strasbourg's sector (1° cells over France) holds the 1 501 and the demo's missions around the city.
      const strasbourg = map.getByRole('button', { name: /^1\s5\d\d missions dans ce secteur, dont 1\s5\d\d à trier : zoomer$/ });
      await expect(strasbourg).toBeVisible();
      await snap(page, 'maps-admin-groups-france');

      // Opening it zooms onto its sector and searches it: more than 500 still, so smaller groups, each a part of the
      // 1 501. Opening the largest again and again comes down to the missions, drawn one by one. The first is opened
      // with a click, the others with the keyboard: a group whose sector crosses the view's edge may sit outside it.
      const groups = map.getByRole('button', { name: /missions? dans ce secteur.* : zoomer$/ });
      const countOf = async (group: Locator) =>
        Number((await group.getAttribute('aria-label'))!.replace(/\s/g, '').match(/^\d+/)![0]);
      let opened: Locator = strasbourg;
      let openedCount = await countOf(strasbourg);
      for (let step = 1; ; step++) {
        const searched = page.waitForResponse((r) => r.url().includes('/api/missions/map?') && r.url().includes('south='));
        if (step === 1) await opened.click();
        else await opened.press('Enter');
        expect((await searched).status()).toBe(200);
        const shown = page.getByText(/missions? sur la carte, (regroupées par secteur|0 sélectionnée)/);
        await expect(shown).toBeVisible();
        if (!(await shown.textContent())!.includes('regroupées')) break;
        expect(step, 'trois ouvertures au plus jusqu’aux missions').toBeLessThan(4);
        const counts = await Promise.all((await groups.all()).map(countOf));
        expect(counts.length).toBeGreaterThan(1);
        expect(Math.max(...counts)).toBeLessThan(openedCount);
        if (step === 1) {
          expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(total);
          await snap(page, 'maps-admin-groups-sector');
        }
        openedCount = Math.max(...counts);
        opened = groups.nth(counts.indexOf(openedCount));
      }
      const markers = map.getByRole('button', { name: new RegExp(`^Secteur \\d+ ${stamp} \\(À trier\\)`) });
      // Close together, they may still be grouped by the page itself (« missions proches »): one opens them.
      if ((await markers.count()) === 0) {
        await page.getByRole('radio', { name: 'Déplacer la carte' }).click();
        await map.getByRole('button', { name: /missions proches : zoomer$/ }).first().click();
      }
      await expect(markers.first()).toBeAttached();
      // Drawn one by one: the view holds at most 500 missions (decision 053), its opened group's and its neighbours'.
      const drawn = Number((await page.getByText(/missions? sur la carte, \d+ sélectionnée/).textContent())!.match(/^(\d+) missions?/)![1]);
      expect(drawn).toBeGreaterThanOrEqual(await markers.count());
      expect(drawn).toBeLessThanOrEqual(500);
      await expect(page.getByRole('button', { name: 'Toute la France' })).toBeVisible();
      await snap(page, 'maps-admin-groups-opened');
    } finally {
      for (let i = 0; i < ids.length; i += 500) {
        const removed = await admin.delete('/api/missions/bulk-delete', { data: { missionIds: ids.slice(i, i + 500) } });
        expect(removed.status(), await removed.text()).toBe(200);
      }
      await admin.dispose();
    }
  });
});
