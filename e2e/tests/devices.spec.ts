import fs from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type Download, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ADMIN, PHONE } from '../fixtures/accounts';
import { snap } from '../fixtures/screens';
import { openDeviceCard } from '../fixtures/field-lot';

/**
 * Issue 16: a technician fills the visit report of a device of its Recruté lot on the phone (outcome, checklist,
 * expiry dates, photos, signature drawn with the pointer), sees the device Effectué and downloads the PV; the admin
 * finds the device in Parc DAE with its new expiry dates, completes its registry record, downloads the PV, the label
 * and the Géo'DAE CSV. Everything here runs on a technician and a lot of its own.
 */
test.describe.configure({ mode: 'serial' });

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
const SERIAL = `DAE-E2E-${stamp}`;
const DEVICE_TITLE = `Maintenance - Médiathèque ${stamp}`;

function dayFromToday(days: number): { input: string; shown: string } {
  const date = new Date(Date.now() + days * 86_400_000);
  const input = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  const [y, m, d] = input.split('-');
  return { input, shown: `${d}/${m}/${y}` };
}
const BATTERY = dayFromToday(900);
const PADS = dayFromToday(500);
const TODAY = dayFromToday(0);

let technician: { email: string; password: string };
let batchId = '';

/** The text of every page of a PDF, read with pdf.js (not the library that wrote it). */
async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages.join('\n');
}

async function downloaded(download: Download): Promise<Buffer> {
  const file = await download.path();
  return fs.readFileSync(file);
}

/** A fresh technician (registered, approved, trained) recruited on a lot of two devices with site e-mails. */
async function createRecruitedLot(baseURL: string) {
  const origin = new URL(baseURL).origin;
  const admin = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  expect((await admin.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
  const tech = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  const email = `e2e-devices-${stamp}@maillon.test`;
  const password = 'Rapport-E2E-2026!';
  const registered = await tech.post('/api/technicians/register', {
    multipart: { firstName: 'Inès', lastName: 'Rapport', email, password, phone: '06 11 22 33 44', address: '5 rue de la Roquette', postalCode: '75011', city: 'Paris', country: 'France', departments: JSON.stringify(['75']), termsAccepted: 'true' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { technicianId } = (await registered.json()) as { technicianId: string };
  expect((await admin.patch(`/api/technicians/${technicianId}/approve`, { data: {} })).status()).toBe(200);
  expect((await tech.post('/api/auth/login', { data: { email, password } })).ok()).toBe(true);
  for (const resource of (await (await tech.get('/api/learning-resources')).json()) as { id: string }[]) {
    expect((await tech.post(`/api/learning-resources/${resource.id}/view`, { data: { technicianId } })).ok()).toBe(true);
  }
  const title = `Parc e2e ${stamp}`;
  const deadline = dayFromToday(20).input;
  const lot = await admin.post('/api/mission-batches', { data: { title, description: 'Lot de la recette du rapport', price: 300, departments: ['75'], tags: ['Maintenance'], deadline } });
  expect(lot.status(), await lot.text()).toBeLessThan(300);
  const batchId = ((await lot.json()) as { id: string }).id;
  for (const [k, name] of ['Médiathèque', 'Conservatoire'].entries()) {
    const mission = await admin.post('/api/missions', {
      data: {
        title: `Maintenance - ${name} ${stamp}`,
        description: 'Maintenance préventive',
        location: `${12 + k} rue de la Roquette, 75011 Paris`,
        department: '75',
        budget: 150,
        deadline,
        status: 'active',
        batchId,
        serialNumber: k === 0 ? SERIAL : `${SERIAL}-B`,
        clientName: `${name} Roquette`,
        defibrillatorModel: 'Zoll - AED Plus',
        visitType: 'Maintenance préventive',
        telSite: '01 43 55 66 77',
        emailSite: `site-${k}-${stamp}@exemple.fr`,
        postalCode: '75011',
        city: 'Paris',
        latitude: 48.8559 + k / 1000,
        longitude: 2.3745,
      },
    });
    expect(mission.status(), await mission.text()).toBeLessThan(300);
  }
  const visible = await admin.put(`/api/mission-batches/${batchId}`, {
    data: { title, description: 'Lot de la recette du rapport', price: 300, departments: ['75'], tags: ['Maintenance'], deadline, visibility: 'visible' },
  });
  expect(visible.status(), await visible.text()).toBe(200);
  const applied = await tech.post('/api/applications/batch', { data: { batchId, technicianId, status: 'En attente' } });
  expect(applied.status(), await applied.text()).toBeLessThan(300);
  const applicationId = ((await applied.json()) as { id: string }).id;
  expect((await admin.patch(`/api/applications/${applicationId}/status`, { data: { status: 'Recruté' } })).status()).toBe(200);
  await tech.dispose();
  await admin.dispose();
  return { email, password, title, batchId };
}

async function loginTechnician(page: Page) {
  await page.setViewportSize(PHONE);
  await page.goto('/technician/login');
  await page.getByLabel('Email').fill(technician.email);
  await page.getByLabel('Mot de passe').fill(technician.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/technician\/dashboard/);
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

test.describe('Parc DAE and visit reports', () => {
  test.beforeAll(async ({ baseURL }) => {
    const lot = await createRecruitedLot(baseURL!);
    technician = { email: lot.email, password: lot.password };
    batchId = lot.batchId;
  });

  test('technician: fills the visit report with photos and a drawn signature, the device becomes Effectué, downloads the PV', async ({ page }) => {
    await loginTechnician(page);
    await page.goto('/technician/dashboard?tab=missions');
    const card = await openDeviceCard(page, DEVICE_TITLE);
    await expect(card.getByRole('switch', { name: `Effectué : ${DEVICE_TITLE}` })).not.toBeChecked();
    await card.getByRole('link', { name: `Rapport de visite : ${DEVICE_TITLE}` }).click();

    await expect(page).toHaveURL(/\/technician\/visits\/[0-9a-f-]+\/report$/);
    await expect(page.getByRole('heading', { name: 'Rapport de visite' })).toBeVisible();
    await expect(page.getByText(`N° ${SERIAL}`)).toBeVisible();
    await snap(page, 'technician-visit-report-empty');

    // The outcome, then a reload: the server-side draft brings it back.
    await page.getByRole('radiogroup', { name: 'État constaté' }).getByRole('radio', { name: 'En fonctionnement' }).click();
    await page.getByLabel('Observations').fill('Électrodes adultes remplacées, armoire propre, alarme fonctionnelle.');
    await expect(page.getByText(/Brouillon enregistré à \d{2}:\d{2}/)).toBeVisible();
    await page.reload();
    await expect(page.getByRole('radiogroup', { name: 'État constaté' }).getByRole('radio', { name: 'En fonctionnement' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByLabel('Observations')).toHaveValue('Électrodes adultes remplacées, armoire propre, alarme fonctionnelle.');

    for (const item of ['État général', 'Voyant d’état', 'Batterie', 'Électrodes adultes', 'Électrodes pédiatriques', 'Armoire / alarme']) {
      await page.getByRole('radiogroup', { name: item, exact: true }).getByRole('radio', { name: item === 'Électrodes pédiatriques' ? 'Non applicable' : 'OK' }).click();
    }
    await page.getByRole('radiogroup', { name: 'Signalétique', exact: true }).getByRole('radio', { name: 'À signaler' }).click();
    await page.getByLabel('Péremption de la batterie').fill(BATTERY.input);
    await page.getByLabel('Péremption des électrodes adultes').fill(PADS.input);
    await page.getByRole('radiogroup', { name: 'Électrodes pédiatriques présentes ?' }).getByRole('radio', { name: 'Non' }).click();
    await page.getByRole('checkbox', { name: 'Électrodes Zoll CPR-D-padz (AED Plus)' }).check();

    await page.getByLabel('Ajouter des photos').setInputFiles([path.join(FIXTURES, 'photo-armoire.jpg'), path.join(FIXTURES, 'photo-signaletique.png')]);
    await expect(page.getByRole('img', { name: 'Photo 2' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ajouter des photos (2/6)' })).toBeVisible();

    await page.getByLabel('Nom du contact qui signe').fill('Mme Hélène Garnier');
    await drawSignature(page);
    await expect(page.getByRole('button', { name: 'Effacer la signature' })).toBeEnabled();
    await expect(page.getByText(/Brouillon enregistré à/)).toBeVisible();
    await snap(page, 'technician-visit-report-filled');

    await page.getByRole('button', { name: 'Enregistrer le rapport' }).click();
    await expect(page.getByText('Rapport enregistré', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Rapport enregistré' })).toContainText('Rapport enregistré (version 1)');
    await expect(page.getByRole('region', { name: 'Rapport enregistré' })).toContainText('Défibrillateur Effectué');
    await snap(page, 'technician-visit-report-saved');

    const [pv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Télécharger le PV' }).click()]);
    expect(pv.suggestedFilename()).toBe(`PV-maintenance-${SERIAL}-v1.pdf`);
    const text = await pdfText(await downloaded(pv));
    for (const expected of ['Procès-verbal de maintenance', SERIAL, 'En fonctionnement', 'Mme Hélène Garnier', BATTERY.shown, PADS.shown, 'Inès Rapport', 'Empreinte SHA-256 du rapport']) {
      expect(text, expected).toContain(expected);
    }

    // The lot's label sheet, to stick the labels on site.
    const [sheet] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Étiquettes de maintenance du lot (PDF)' }).click()]);
    const sheetText = await pdfText(await downloaded(sheet));
    for (const expected of [SERIAL, `${SERIAL}-B`, 'PROCHAINE MAINTENANCE', BATTERY.shown]) expect(sheetText, expected).toContain(expected);

    await page.getByRole('link', { name: 'Retour à la mission' }).click();
    const done = await openDeviceCard(page, DEVICE_TITLE);
    await expect(done.getByText('Effectué', { exact: true }).first()).toBeVisible();
    await expect(done.getByRole('switch', { name: `Effectué : ${DEVICE_TITLE}` })).toBeChecked();
    await snap(page, 'technician-recruited-device-done');
  });

  test('admin: finds the device in Parc DAE, completes its registry, downloads the PV, the label and the Géo’DAE CSV', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/admin/login');
    await page.getByLabel('Mot de passe').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard/);
    await page.goto('/admin/dashboard?tab=devices');
    await expect(page.getByRole('heading', { name: 'Parc DAE' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Navigation principale' }).getByRole('link', { name: /Parc DAE/ })).toBeVisible();
    await expect(page.getByRole('table')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /\d+ défibrillateurs/ })).toBeVisible();
    await snap(page, 'admin-devices-list');

    await page.getByLabel('Recherche').fill(SERIAL);
    const row = page.getByRole('row').filter({ hasText: SERIAL }).filter({ hasNotText: `${SERIAL}-B` });
    await expect(row).toBeVisible();
    await expect(row).toContainText(BATTERY.shown);
    await expect(row).toContainText(PADS.shown);
    await expect(row).toContainText('En fonctionnement');
    await row.getByRole('button', { name: `Ouvrir ${SERIAL}` }).click();

    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: SERIAL })).toBeVisible();
    await expect(dialog.getByText('Historique des visites (1)')).toBeVisible();
    await expect(dialog.getByText(/Rapport de Inès Rapport · En fonctionnement · version 1/)).toBeVisible();

    const [pv] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Télécharger le PV de Inès Rapport, version 1' }).click()]);
    expect(await pdfText(await downloaded(pv))).toContain('Mme Hélène Garnier');

    // The registry record: what Géo'DAE needs and the visits did not say.
    await dialog.getByLabel('Environnement').selectOption('Intérieur');
    await dialog.getByLabel('Libre d’accès').selectOption('oui');
    await dialog.getByLabel('Horaires (format Géo’DAE)').fill('Mo-Fr 09:00-19:00; Sa 10:00-18:00; PH off');
    await expect(dialog.getByText('Soit : lun.–ven. 09:00–19:00 ; sam. 10:00–18:00 ; jours fériés fermé')).toBeVisible();
    await dialog.getByLabel('Raison sociale').fill('Ville de Paris, direction des affaires culturelles');
    await dialog.getByLabel('SIREN').fill('123456789');
    await dialog.getByLabel('Téléphone', { exact: true }).fill('01 42 76 40 40');
    await dialog.getByLabel('E-mail', { exact: true }).fill('dae.culture@paris-exemple.fr');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('SIREN invalide : 9 chiffres dont le dernier est une clé de contrôle').first()).toBeVisible();
    await dialog.getByLabel('SIREN').fill('217500016');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Registre mis à jour', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Aucune modification')).toBeVisible();
    await snap(page, 'admin-device-page');

    const [label] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Étiquette de maintenance (PDF)' }).click()]);
    const labelText = await pdfText(await downloaded(label));
    for (const expected of [SERIAL, 'PROCHAINE MAINTENANCE', BATTERY.shown, PADS.shown, 'Ville de Paris']) expect(labelText, expected).toContain(expected);
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Export Géo’DAE' }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export Géo’DAE' });
    await expect(exportDialog.getByText(/défibrillateurs? prêts? sur \d+ maintenus? dans la période/)).toBeVisible();
    await expect(exportDialog.getByText(/Non exportés : données obligatoires manquantes/)).toBeVisible();
    await snap(page, 'admin-geodae-export');
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), exportDialog.getByRole('link', { name: 'Télécharger le CSV Géo’DAE' }).click()]);
    expect(csvDownload.suggestedFilename()).toMatch(/^geodae-\d{4}-01-01-\d{4}-\d{2}-\d{2}\.csv$/);
    const records = parse((await downloaded(csvDownload)).toString('utf8'), { delimiter: ',' }) as string[][];
    const header = records[0]!;
    expect(header.slice(0, 3)).toEqual(['nom', 'lat_coor1', 'long_coor1']);
    expect(header).toContain('dispo_horaires');
    const ours = records.find((cells) => cells[header.indexOf('num_serie')] === SERIAL);
    expect(ours, 'la ligne du défibrillateur exporté').toBeDefined();
    const value = (name: string) => ours![header.indexOf(name)];
    expect(value('dtpr_bat')).toBe(BATTERY.input);
    expect(value('dtpr_lcad')).toBe(PADS.input);
    expect(value('dermnt')).toBe(TODAY.input);
    expect(value('acc_lib')).toBe('oui');
    expect(value('expt_siren')).toBe('217500016');
    expect(value('expt_tel1')).toBe('+33142764040');
    expect(value('tel1')).toBe('+33143556677');
    expect(value('dispo_horaires')).toBe('Mo-Fr 09:00-19:00; Sa 10:00-18:00; PH off');
  });

  test('technician: a refused report keeps its reason under the button; a visit taken away (the lot closed) says so in French, never the raw answer', async ({ page, baseURL }) => {
    const other = `Maintenance - Conservatoire ${stamp}`;
    await loginTechnician(page);
    await page.goto('/technician/dashboard?tab=missions');
    const card = await openDeviceCard(page, other);
    await card.getByRole('link', { name: `Rapport de visite : ${other}` }).click();
    await expect(page.getByRole('heading', { name: 'Rapport de visite' })).toBeVisible();
    await page.getByRole('radiogroup', { name: 'État constaté' }).getByRole('radio', { name: 'Site inaccessible' }).click();
    await page.getByLabel('Observations').fill('Site fermé, gardien absent.');

    // A refusal that is not about one field (here the answer the server gives when a photo's file went missing from the
    // storage, made to happen by answering the first save so): its reason stays under the button once the toast fades.
    const reason = 'Une photo du rapport est introuvable dans le stockage : retirez-la puis enregistrez à nouveau';
    let refusedOnce = false;
    await page.route(/\/api\/missions\/[^/]+\/visit-report$/, async (route) => {
      if (route.request().method() !== 'PUT' || refusedOnce) return route.fallback();
      refusedOnce = true;
      await route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ message: reason, code: 'CONFLICT', requestId: 'e2e' }) });
    });
    await page.getByRole('button', { name: 'Enregistrer le rapport' }).click();
    const underButton = page.locator('footer').getByRole('alert');
    await expect(underButton).toHaveText(`Rapport non enregistré : ${reason}`);
    await expect(page.getByRole('status').filter({ hasText: 'Rapport non enregistré' })).toHaveCount(0, { timeout: 15_000 });
    await expect(underButton).toHaveText(`Rapport non enregistré : ${reason}`);
    await snap(page, 'technician-visit-report-refused');
    await page.unroute(/\/api\/missions\/[^/]+\/visit-report$/);

    // Meanwhile the administrator closes the lot with this device not done: the visit is no longer the technician's.
    const origin = new URL(baseURL!).origin;
    const admin = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
    expect((await admin.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
    const closed = await admin.put(`/api/mission-batches/${batchId}/complete`);
    expect(closed.status(), await closed.text()).toBe(200);
    await admin.dispose();

    await page.getByRole('button', { name: 'Enregistrer le rapport' }).click();
    // The toast gives the server's reason; the screen, read again, says why the visit is gone.
    await expect(page.getByText('Rapport non enregistré', { exact: true })).toBeVisible();
    const gone = page.getByRole('alert').filter({ hasText: 'Cette visite n’est plus dans vos missions' });
    await expect(gone).toContainText('L’administrateur a clôturé le lot ou retiré la visite : son rapport ne peut plus être ouvert ni enregistré.');
    await expect(page.getByText(/NOT_FOUND|requestId|\{"message"/)).toHaveCount(0);
    await snap(page, 'technician-visit-report-gone');
    await page.getByRole('link', { name: 'Retour à la mission' }).click();
    await expect(page).toHaveURL(/\/technician\/dashboard/);
  });
});
