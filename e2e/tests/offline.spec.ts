import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PHONE } from '../fixtures/accounts';
import { createFieldLot, type FieldLot } from '../fixtures/field-lot';
import { snap } from '../fixtures/screens';

/**
 * Issue 17 at phone size in Chromium: the technician's field app works in a dead zone. The dashboard is loaded online
 * once (the service worker takes control, the field's data lands in IndexedDB); offline, the page reloads from the
 * service worker, changes are queued (and survive closing the page), and reach the server exactly once when the
 * network is back. A change the server refuses meanwhile is shown with its reason.
 */

function dayInFuture(days: number): { input: string; shown: string } {
  const date = new Date(Date.now() + days * 86_400_000);
  const input = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  const [y, m, d] = input.split('-');
  return { input, shown: `${d}/${m}/${y}` };
}

async function login(page: Page, lot: FieldLot): Promise<string> {
  await page.setViewportSize(PHONE);
  await page.goto('/technician/login');
  await page.getByLabel('Email').fill(lot.email);
  await page.getByLabel('Mot de passe').fill(lot.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/technician\/dashboard/);
  const me = await page.request.get('/api/auth/me');
  return ((await me.json()) as { user: { id: string } }).user.id;
}

/** What the offline layer saved for this account in IndexedDB: the keys of the kept reads. */
function savedReads(page: Page, userId: string): Promise<string[]> {
  return page.evaluate(
    (id) =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('maillon-offline');
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('accounts')) return resolve([]);
          const get = db.transaction('accounts').objectStore('accounts').get(id);
          get.onsuccess = () => resolve(((get.result?.state?.queries ?? []) as { queryKey: unknown[] }[]).map((q) => JSON.stringify(q.queryKey)));
          get.onerror = () => resolve([]);
        };
      }),
    userId,
  );
}

/** Online once: the service worker controls the page and the lot's devices and parcels are kept on the phone. */
async function installOnline(page: Page, lot: FieldLot, userId: string) {
  await page.goto('/technician/dashboard?tab=missions');
  await expect(page.getByRole('region', { name: lot.title }).getByRole('article')).toHaveCount(lot.devices.length);
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, { timeout: 30_000 });
  await expect
    .poll(async () => {
      const keys = await savedReads(page, userId);
      return keys.some((key) => key.includes('"work"') && key.includes(lot.applicationId)) && keys.some((key) => key.includes('"mine"'));
    })
    .toBe(true);
}

/** The visit report of each device is kept on the phone too (prefetched with the lot's work view). */
async function reportsKept(page: Page, lot: FieldLot, userId: string) {
  await expect
    .poll(async () => {
      const keys = await savedReads(page, userId);
      return lot.devices.every((d) => keys.includes(JSON.stringify(['visit-reports', d.id])));
    })
    .toBe(true);
}

async function drawSignature(page: Page) {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  for (const [x, y] of [[0.2, 0.3], [0.35, 0.75], [0.5, 0.35], [0.65, 0.7], [0.8, 0.3], [0.9, 0.6]] as const) {
    await page.mouse.move(box.x + box.width * x, box.y + box.height * y, { steps: 8 });
  }
  await page.mouse.up();
}

function device(page: Page, title: string) {
  return page.getByRole('article', { name: title, exact: true });
}

async function expand(page: Page, title: string) {
  const row = device(page, title);
  const toggle = row.getByRole('button', { expanded: false });
  if (await toggle.count()) await toggle.click();
  await expect(row.getByRole('switch')).toBeVisible();
  return row;
}

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test.describe('offline field app (phone)', () => {
  test('installable; offline the page reloads, changes are queued across pages and delivered exactly once', async ({ page, context, baseURL }) => {
    test.setTimeout(120_000);
    const lot = await createFieldLot(baseURL!, 'offline', 8);
    const userId = await login(page, lot);

    // Lighthouse-style checks: a valid web app manifest whose icons are real PNGs of their sizes.
    const link = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(link).toBe('/manifest.webmanifest');
    const manifestResponse = await page.request.get(link!);
    expect(manifestResponse.headers()['content-type']).toContain('application/manifest+json');
    const manifest = (await manifestResponse.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      lang: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ short_name: 'Maillon', start_url: '/technician/dashboard', scope: '/technician/', display: 'standalone', lang: 'fr', theme_color: '#c8102e' });
    expect(manifest.name).toContain('Maillon');
    for (const size of ['192x192', '512x512']) expect(manifest.icons.some((icon) => icon.sizes === size && icon.purpose !== 'maskable')).toBe(true);
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const response = await page.request.get(icon.src);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('image/png');
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(await response.body())).toEqual({ width, height });
    }
    const worker = await page.request.get('/sw.js');
    expect(worker.headers()['cache-control']).toBe('no-cache');

    await installOnline(page, lot, userId);
    // Online, the Recruté view of 8 devices is compact; measured for the report.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`Vue Recruté, 8 défibrillateurs, 390 px de large : ${height} px de haut`);
    await snap(page, 'offline-recruited-compact-phone');

    // Dead zone: the page reloads from the service worker, with the lot from IndexedDB.
    await context.setOffline(true);
    await page.reload();
    const region = page.getByRole('region', { name: lot.title });
    await expect(region.getByRole('article')).toHaveCount(8);
    await expect(page.getByRole('status').filter({ hasText: 'Hors ligne — aucune modification en attente' })).toBeVisible();
    await expect(page.getByText('Hors ligne — aucune modification en attente')).toBeVisible();

    // Plan a date, toggle two devices, write a comment.
    const visit = dayInFuture(6);
    const [first, second] = lot.devices;
    const firstRow = await expand(page, first!.title);
    await firstRow.getByLabel('Je passerais le :').fill(visit.input);
    await firstRow.getByLabel('Je passerais le :').blur();
    await expect(firstRow.getByRole('button', { name: 'Informer client' })).toBeDisabled();
    await firstRow.getByRole('switch', { name: `Effectué : ${first!.title}` }).click();
    await expect(firstRow.getByRole('switch', { name: `Effectué : ${first!.title}` })).toHaveAttribute('aria-checked', 'true');
    const secondRow = await expand(page, second!.title);
    await secondRow.getByRole('switch', { name: `Effectué : ${second!.title}` }).click();
    await expect(secondRow.getByRole('switch', { name: `Effectué : ${second!.title}` })).toHaveAttribute('aria-checked', 'true');
    await expect(firstRow.getByText(`Passage le ${visit.shown}`)).toBeVisible();
    await expect(firstRow.getByText('en attente', { exact: true }).first()).toBeVisible();
    await expect(secondRow.getByText('en attente', { exact: true }).first()).toBeVisible();
    await expect(region.getByText('2 / 8 effectués').last()).toBeVisible();
    const comment = region.getByLabel("Commentaire pour l'admin");
    await comment.fill('Parking niveau -3 sans réseau : badge gardien.');
    await expect(region.getByText('Enregistré sur le téléphone, envoi au retour du réseau')).toBeVisible();
    await expect(page.getByText('Hors ligne — 4 modifications en attente')).toBeVisible();
    await expect(region.getByRole('button', { name: 'Marquer comme terminé' })).toBeDisabled();
    await secondRow.getByRole('button', { expanded: true }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'offline-pending-marks-phone');

    // The parcel, from the bottom navigation (the packages tab's code comes from the service worker).
    const nav = page.getByRole('navigation', { name: 'Onglets' });
    await nav.getByRole('link', { name: 'Mes réceptions colis' }).click();
    const parcel = page.getByRole('article').filter({ hasText: lot.parcel.content });
    await parcel.getByRole('button', { name: 'Marquer comme reçu' }).click();
    await expect(parcel.getByText('Réception en attente d’envoi')).toBeVisible();
    await expect(page.getByText('Hors ligne — 5 modifications en attente')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Mes réceptions colis' })).toHaveAttribute('aria-current', 'page');
    await snap(page, 'offline-packages-bottom-nav-phone');

    // The page is closed; a new one, still offline, opens at the manifest's start URL and has the queue (IndexedDB).
    await page.close();
    const again = await context.newPage();
    await again.setViewportSize(PHONE);
    await again.goto(manifest.start_url);
    await expect(again.getByRole('heading', { name: 'Trouver des missions', level: 1 })).toBeVisible();
    await expect(again.getByText('Hors ligne — 5 modifications en attente')).toBeVisible();
    expect(await again.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await again.getByRole('navigation', { name: 'Onglets' }).getByRole('link', { name: 'Candidatures & Missions' }).click();
    await expect(again.getByText('Hors ligne — 5 modifications en attente')).toBeVisible();
    const regionAgain = again.getByRole('region', { name: lot.title });
    await expect(regionAgain.getByText('2 / 8 effectués').last()).toBeVisible();
    await expect(regionAgain.getByLabel("Commentaire pour l'admin")).toHaveValue('Parking niveau -3 sans réseau : badge gardien.');
    await snap(again, 'offline-banner-after-reopen-phone');

    // The network is back: everything is sent, once.
    await context.setOffline(false);
    await expect(again.getByText('Tout est synchronisé')).toBeVisible({ timeout: 30_000 });
    await snap(again, 'offline-synced-phone');
    const work = (await (await again.request.get(`/api/applications/${lot.applicationId}/work`)).json()) as {
      lot: { defibrillatorsDone: number };
      missions: { id: string; progress: { isCompleted: boolean; plannedVisitDate: string | null } }[];
      technicianComment: { content: string };
    };
    expect(work.lot.defibrillatorsDone).toBe(2);
    const byId = new Map(work.missions.map((m) => [m.id, m.progress]));
    expect(byId.get(first!.id)).toMatchObject({ isCompleted: true });
    expect(byId.get(first!.id)!.plannedVisitDate?.slice(0, 10)).toBe(visit.input);
    expect(byId.get(second!.id)).toMatchObject({ isCompleted: true, plannedVisitDate: null });
    expect(work.missions.filter((m) => m.progress.isCompleted)).toHaveLength(2);
    expect(work.technicianComment.content).toBe('Parking niveau -3 sans réseau : badge gardien.');
    const parcels = (await (await again.request.get(`/api/shipments?technicianId=${lot.technicianId}`)).json()) as { id: string; status: string }[];
    expect(parcels.find((p) => p.id === lot.parcel.id)?.status).toBe('delivered');
    // No client e-mail was sent by any of these changes, and the lot's invoice counts two devices.
    const invoices = (await (await again.request.get(`/api/technician/${lot.technicianId}/invoices`)).json()) as { batchId: string; progression: string }[];
    expect(invoices.find((i) => i.batchId === lot.batchId)?.progression).toBe('2/8');
    await expect(again.getByRole('article', { name: first!.title, exact: true }).getByText('en attente', { exact: true })).toHaveCount(0);

    // Downloads still go to the network, not the app shell.
    const download = await again.request.get('/api/files/00000000-0000-4000-8000-000000000000');
    expect(download.headers()['content-type']).toContain('application/json');

    // Logging out takes the account's data off the phone.
    expect((await savedReads(again, userId)).length).toBeGreaterThan(0);
    await again.getByRole('button', { name: 'Déconnexion' }).click();
    await expect(again).toHaveURL(/\/$/);
    await expect.poll(() => savedReads(again, userId)).toEqual([]);
    await lot.admin.dispose();
  });

  test('a queued change the admin made impossible meanwhile is listed as refused, with the server’s reason', async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    const lot = await createFieldLot(baseURL!, 'refus', 2);
    const userId = await login(page, lot);
    await installOnline(page, lot, userId);

    await context.setOffline(true);
    const [first] = lot.devices;
    const row = await expand(page, first!.title);
    await row.getByRole('switch', { name: `Effectué : ${first!.title}` }).click();
    await expect(page.getByText('Hors ligne — 1 modification en attente')).toBeVisible();

    // Meanwhile the admin force-finishes the lot (its own session, through the API).
    const forced = await lot.admin.patch(`/api/applications/${lot.applicationId}/complete`, { data: {} });
    expect(forced.status(), await forced.text()).toBe(200);

    await context.setOffline(false);
    const refused = page.getByRole('region', { name: 'Modifications refusées' });
    await expect(refused).toBeVisible({ timeout: 30_000 });
    // The server's own words: the same change sent now gets the same refusal.
    const direct = await page.request.patch(`/api/technician-mission-data/${first!.id}/${lot.technicianId}`, { data: { isCompleted: true }, headers: { Origin: new URL(baseURL!).origin } });
    expect(direct.status()).toBeGreaterThanOrEqual(400);
    const reason = ((await direct.json()) as { message: string }).message;
    await expect(refused.getByText(`Effectué — ${first!.title}`)).toBeVisible();
    await expect(refused.getByText(reason)).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'offline-refused-change-phone');
    await refused.getByRole('button', { name: `Ignorer : Effectué — ${first!.title}` }).click();
    await expect(refused).toBeHidden();
    await lot.admin.dispose();
  });

  test('the visit report is filled and submitted offline, with its photo and signature, and reaches the server once', async ({ page, context, baseURL }) => {
    test.setTimeout(150_000);
    const lot = await createFieldLot(baseURL!, 'rapport', 2);
    const userId = await login(page, lot);
    await installOnline(page, lot, userId);
    await reportsKept(page, lot, userId);
    const [first] = lot.devices;
    const battery = dayInFuture(900);
    const pads = dayInFuture(500);

    // Dead zone: the page reloads from the service worker, the report opens from the phone's data.
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('region', { name: lot.title }).getByRole('article')).toHaveCount(2);
    const row = await expand(page, first!.title);
    await row.getByRole('link', { name: `Rapport de visite : ${first!.title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/technician/visits/${first!.id}/report$`));
    await expect(page.getByRole('heading', { name: 'Rapport de visite' })).toBeVisible();
    await expect(page.getByText(/N° SN-OFF-/)).toBeVisible();

    await page.getByRole('radiogroup', { name: 'État constaté' }).getByRole('radio', { name: 'En fonctionnement' }).click();
    for (const item of ['État général', 'Voyant d’état', 'Batterie', 'Électrodes adultes', 'Électrodes pédiatriques', 'Armoire / alarme', 'Signalétique']) {
      await page.getByRole('radiogroup', { name: item, exact: true }).getByRole('radio', { name: item === 'Électrodes pédiatriques' ? 'Non applicable' : 'OK' }).click();
    }
    await page.getByLabel('Péremption de la batterie').fill(battery.input);
    await page.getByLabel('Péremption des électrodes adultes').fill(pads.input);
    await page.getByRole('radiogroup', { name: 'Électrodes pédiatriques présentes ?' }).getByRole('radio', { name: 'Non' }).click();
    await page.getByLabel('Observations').fill('Visite au sous-sol, sans réseau : tout est conforme.');
    // The photo is shrunk on the phone and kept as a Blob until the network is back.
    await page.getByLabel('Ajouter des photos').setInputFiles(path.resolve(import.meta.dirname, '../fixtures/photo-armoire.jpg'));
    const photo = page.getByRole('list', { name: 'Photos du rapport' }).getByRole('listitem').first();
    await expect(photo.getByRole('img', { name: 'Photo 1' })).toBeVisible();
    await expect(photo.getByText('en attente d’envoi')).toBeVisible();
    expect(await photo.getByRole('img', { name: 'Photo 1' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:'))).toBe(true);
    await page.getByLabel('Nom du contact qui signe').fill('M. Karim Benali');
    await drawSignature(page);
    await expect(page.getByRole('button', { name: 'Effacer la signature' })).toBeEnabled();
    await expect(page.getByText('Brouillon enregistré sur le téléphone — envoi au retour du réseau')).toBeVisible();

    await page.getByRole('button', { name: 'Enregistrer le rapport' }).click();
    const waiting = page.getByRole('region', { name: 'Rapport en attente d’envoi' });
    await expect(waiting).toContainText('Rapport enregistré sur le téléphone — il sera envoyé au retour du réseau');
    await expect(page.getByText('En attente d’envoi', { exact: true })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'offline-visit-report-waiting-phone');

    // Reloaded offline, the report screen keeps what was typed, the photo and the waiting report.
    await page.reload();
    await expect(page.getByRole('region', { name: 'Rapport en attente d’envoi' })).toBeVisible();
    await expect(page.getByLabel('Observations')).toHaveValue('Visite au sous-sol, sans réseau : tout est conforme.');
    await expect(page.getByLabel('Nom du contact qui signe')).toHaveValue('M. Karim Benali');
    await expect(page.getByRole('list', { name: 'Photos du rapport' }).getByRole('img', { name: 'Photo 1' })).toBeVisible();

    // The page is closed; a new one, still offline, shows the device Effectué with its pending mark.
    await page.close();
    const again = await context.newPage();
    await again.setViewportSize(PHONE);
    await again.goto('/technician/dashboard?tab=missions');
    const region = again.getByRole('region', { name: lot.title });
    const deviceRow = again.getByRole('article', { name: first!.title, exact: true });
    await expect(deviceRow.getByText('Effectué', { exact: true }).first()).toBeVisible();
    await expect(deviceRow.getByText('en attente', { exact: true }).first()).toBeVisible();
    await expect(region.getByText('1 / 2 effectués').last()).toBeVisible();
    await expect(again.getByText(/Hors ligne — \d+ modifications en attente/)).toBeVisible();
    await again.evaluate(() => window.scrollTo(0, 0));
    await snap(again, 'offline-visit-report-pending-mark-phone');

    // The network is back: drafts, photo and report are sent in order, once.
    await context.setOffline(false);
    await expect(again.getByText('Tout est synchronisé')).toBeVisible({ timeout: 30_000 });
    const saved = (await (await again.request.get(`/api/missions/${first!.id}/visit-report`)).json()) as {
      isCompleted: boolean;
      report: { status: string; version: number; outcome: string; signerName: string; hasSignature: boolean; observations: string; photos: { id: string; width: number }[]; draft: unknown };
    };
    expect(saved.isCompleted).toBe(true);
    expect(saved.report).toMatchObject({ status: 'final', version: 1, outcome: 'En fonctionnement', signerName: 'M. Karim Benali', hasSignature: true, draft: null });
    expect(saved.report.observations).toBe('Visite au sous-sol, sans réseau : tout est conforme.');
    expect(saved.report.photos).toHaveLength(1);
    const stored = await again.request.get(`/api/missions/${first!.id}/visit-report/photos/${saved.report.photos[0]!.id}`);
    expect(stored.headers()['content-type']).toBe('image/jpeg');
    expect((await stored.body()).subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    const work = (await (await again.request.get(`/api/applications/${lot.applicationId}/work`)).json()) as {
      lot: { defibrillatorsDone: number };
      missions: { id: string; progress: { isCompleted: boolean } }[];
    };
    expect(work.lot.defibrillatorsDone).toBe(1);
    expect(work.missions.find((m) => m.id === first!.id)?.progress.isCompleted).toBe(true);
    await expect(deviceRow.getByText('en attente', { exact: true })).toHaveCount(0);

    // Online again, the PV downloads from the report screen.
    await expand(again, first!.title);
    await deviceRow.getByRole('link', { name: `Rapport de visite : ${first!.title}` }).click();
    await expect(again.getByRole('region', { name: 'Rapport enregistré' })).toContainText('Rapport enregistré (version 1)');
    await expect(again.getByRole('link', { name: 'Télécharger le PV' })).toBeVisible();
    await lot.admin.dispose();
  });

  test('a visit report the admin made impossible meanwhile is listed as refused; the PV needs the network', async ({ page, context, baseURL }) => {
    test.setTimeout(120_000);
    const lot = await createFieldLot(baseURL!, 'rapport-refus', 2);
    const userId = await login(page, lot);
    const [first, second] = lot.devices;
    // The first device is Effectué already (plain toggle): a forced finish keeps it in the lot (undone ones leave it).
    const toggled = await page.request.patch(`/api/technician-mission-data/${first!.id}/${lot.technicianId}`, { data: { isCompleted: true }, headers: { Origin: new URL(baseURL!).origin } });
    expect(toggled.status(), await toggled.text()).toBe(200);
    await installOnline(page, lot, userId);
    await reportsKept(page, lot, userId);

    // The first device's report is saved online: its PV is downloadable, but not offline.
    await expand(page, second!.title);
    await page.getByRole('link', { name: `Rapport de visite : ${second!.title}` }).click();
    await page.getByRole('radiogroup', { name: 'État constaté' }).getByRole('radio', { name: 'Site inaccessible' }).click();
    await page.getByLabel('Observations').fill('Bâtiment fermé.');
    await page.getByRole('button', { name: 'Enregistrer le rapport' }).click();
    await expect(page.getByRole('region', { name: 'Rapport enregistré' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Télécharger le PV' })).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByRole('button', { name: 'Télécharger le PV' })).toBeDisabled();
    await expect(page.getByText('Connexion requise pour télécharger le PV : disponible dès le retour du réseau')).toBeVisible();
    await page.getByRole('link', { name: 'Retour à la mission' }).click();

    // Offline, the other device's report is submitted.
    const row = await expand(page, first!.title);
    await row.getByRole('link', { name: `Rapport de visite : ${first!.title}` }).click();
    await page.getByRole('radiogroup', { name: 'État constaté' }).getByRole('radio', { name: 'Site inaccessible' }).click();
    await page.getByLabel('Observations').fill('Gardien absent.');
    await page.getByRole('button', { name: 'Enregistrer le rapport' }).click();
    await expect(page.getByRole('region', { name: 'Rapport en attente d’envoi' })).toBeVisible();

    // Meanwhile the admin force-finishes the lot.
    const forced = await lot.admin.patch(`/api/applications/${lot.applicationId}/complete`, { data: {} });
    expect(forced.status(), await forced.text()).toBe(200);
    await page.getByRole('link', { name: 'Retour à la mission' }).click();
    await context.setOffline(false);
    const refused = page.getByRole('region', { name: 'Modifications refusées' });
    await expect(refused).toBeVisible({ timeout: 30_000 });
    await expect(refused.getByText(`Rapport de visite — ${first!.title}`, { exact: true })).toBeVisible();
    await expect(refused.getByText('Ce lot n’est plus en cours : le rapport ne peut plus être modifié').first()).toBeVisible();
    const kept = (await (await page.request.get(`/api/missions/${first!.id}/visit-report`)).json()) as { report: { status: string } | null };
    expect(kept.report?.status ?? 'aucun').not.toBe('final');
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'offline-visit-report-refused-phone');
    await lot.admin.dispose();
  });
});
