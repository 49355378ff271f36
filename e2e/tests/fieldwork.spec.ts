import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, PHONE, TECHNICIAN } from '../fixtures/accounts';
import { snap } from '../fixtures/screens';

/**
 * Issue 5 at phone size: the demo technician's Recruté lot "Paris Est - maintenance préventive" (plan a date, inform
 * the client, toggle a device and back, sort the route, autosaved comment) and its parcels (search, mark received).
 * The demo lot is shared with other specs: every change made here is undone, or made on records created here.
 */

const LOT_TITLE = 'Paris Est - maintenance préventive';
/** An undone demo device of that lot whose site has an e-mail. */
const DEVICE = 'Maintenance - Piscine municipale Paris';

function dayInFuture(days: number): { input: string; shown: string } {
  const date = new Date(Date.now() + days * 86_400_000);
  const input = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  const [y, m, d] = input.split('-');
  return { input, shown: `${d}/${m}/${y}` };
}

async function adminContext(baseURL: string): Promise<APIRequestContext> {
  const request = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
  const login = await request.post('/api/auth/login', { data: ADMIN });
  expect(login.ok()).toBe(true);
  return request;
}

async function loginTechnician(page: Page) {
  await page.setViewportSize(PHONE);
  await page.goto('/technician/login');
  await page.getByLabel('Email').fill(TECHNICIAN.email);
  await page.getByLabel('Mot de passe').fill(TECHNICIAN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/technician\/dashboard/);
  const me = await page.request.get('/api/auth/me');
  return ((await me.json()) as { technician: { id: string } }).technician.id;
}

async function expectNoHorizontalScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}


/**
 * A lot of our own for the finish journey: a fresh technician (registered, approved, trained), a visible lot of
 * 3 devices around Paris with a site e-mail, the technician's application selected by the admin.
 */
async function createRecruitedLot(baseURL: string) {
  const origin = new URL(baseURL).origin;
  const admin = await adminContext(baseURL);
  const tech = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
  const email = `e2e-fieldwork-${stamp}@maillon.test`;
  const password = 'Terrain-E2E-2026!';
  const registered = await tech.post('/api/technicians/register', {
    multipart: {
      firstName: 'Hugo',
      lastName: 'Terrain',
      email,
      password,
      phone: '06 98 76 54 32',
      address: '5 rue de la Roquette',
      postalCode: '75011',
      city: 'Paris',
      country: 'France',
      departments: JSON.stringify(['75', '93']),
      termsAccepted: 'true',
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { technicianId } = (await registered.json()) as { technicianId: string };
  expect((await admin.patch(`/api/technicians/${technicianId}/approve`, { data: {} })).status()).toBe(200);
  expect((await tech.post('/api/auth/login', { data: { email, password } })).ok()).toBe(true);
  const resources = (await (await tech.get('/api/learning-resources')).json()) as { id: string }[];
  for (const resource of resources) {
    expect((await tech.post(`/api/learning-resources/${resource.id}/view`, { data: { technicianId } })).ok()).toBe(true);
  }

  const title = `Terrain e2e ${stamp}`;
  const deadline = dayInFuture(20).input;
  const lot = await admin.post('/api/mission-batches', { data: { title, description: 'Lot de la recette terrain', price: 450, departments: ['75', '93'], tags: ['Maintenance'], deadline } });
  expect(lot.status(), await lot.text()).toBeLessThan(300);
  const batchId = ((await lot.json()) as { id: string }).id;
  const sites = [
    ['Mairie du 11e', '12 place Léon Blum, 75011 Paris', '75011', 'Paris', 48.8574, 2.3795],
    ['Stade de France', 'Rue Henri Delaunay, 93200 Saint-Denis', '93200', 'Saint-Denis', 48.9245, 2.3602],
    ['Gare de Lyon', 'Place Louis-Armand, 75012 Paris', '75012', 'Paris', 48.8443, 2.3744],
  ] as const;
  const devices: string[] = [];
  for (const [k, [name, location, postalCode, city, latitude, longitude]] of sites.entries()) {
    const mission = await admin.post('/api/missions', {
      data: {
        title: `Maintenance - ${name} ${stamp}`,
        description: 'Maintenance préventive',
        location,
        department: postalCode.slice(0, 2),
        budget: 150,
        deadline,
        status: 'active',
        batchId,
        serialNumber: `SN-E2E-${stamp}-${k}`,
        clientName: name,
        defibrillatorModel: 'ZOLL - AED Plus',
        visitType: 'Maintenance préventive',
        telSite: '01 23 45 67 89',
        emailSite: `site-${k}-${stamp}@exemple.fr`,
        completionLink: `https://formulaires.maillon.fr/completion?serie=SN-E2E-${stamp}-${k}`,
        postalCode,
        city,
        latitude,
        longitude,
      },
    });
    expect(mission.status(), await mission.text()).toBeLessThan(300);
    devices.push(`Maintenance - ${name} ${stamp}`);
  }
  const visible = await admin.put(`/api/mission-batches/${batchId}`, {
    data: { title, description: 'Lot de la recette terrain', price: 450, departments: ['75', '93'], tags: ['Maintenance'], deadline, visibility: 'visible' },
  });
  expect(visible.status(), await visible.text()).toBe(200);
  const applied = await tech.post('/api/applications/batch', { data: { batchId, technicianId, status: 'En attente' } });
  expect(applied.status(), await applied.text()).toBeLessThan(300);
  const applicationId = ((await applied.json()) as { id: string }).id;
  const selected = await admin.patch(`/api/applications/${applicationId}/status`, { data: { status: 'Recruté' } });
  expect(selected.status(), await selected.text()).toBe(200);
  await tech.dispose();
  return { admin, email, password, technicianId, batchId, title, devices };
}

function deviceCard(page: Page, title: string) {
  return page.getByRole('article', { name: title, exact: true });
}

/** The Recruté view lists devices as compact rows (issue 17): a tap opens the full card. */
async function openDevice(page: Page, title: string) {
  const card = deviceCard(page, title);
  await expect(card).toBeVisible();
  const collapsed = card.getByRole('button', { expanded: false });
  if (await collapsed.count()) await collapsed.click();
  await expect(card.getByRole('switch')).toBeVisible();
  return card;
}

test.describe('field work (phone)', () => {
  test('Recruté view: plan a visit, inform the client, toggle, sort the route, comment for the admin', async ({ page, baseURL }) => {
    await loginTechnician(page);
    await page.goto('/technician/dashboard?tab=missions');
    const lot = page.getByRole('region', { name: LOT_TITLE });
    await expect(lot.getByRole('heading', { name: 'Défibrillateurs à traiter' })).toBeVisible();
    await expect(lot.getByText('Toutes les missions doivent-êtres complétées pour clôturer la mission')).toBeVisible();
    await expect(lot.getByRole('button', { name: 'Marquer comme terminé' })).toBeDisabled();
    // Devices are done and a parcel is on its way: cancelling is blocked.
    await expect(lot.getByRole('button', { name: 'Annuler', exact: true })).toBeDisabled();
    await expect(lot.getByText('Merci de prévoir les électrodes adultes pour les 3 premiers sites.')).toBeVisible();
    await expect(lot.getByRole('article')).toHaveCount(8);
    await expectNoHorizontalScroll(page);
    await snap(page, 'fieldwork-recruited-phone');

    // Plan a date and inform the client.
    const device = await openDevice(page, DEVICE);
    const visit = dayInFuture(12);
    await device.getByLabel('Je passerais le :').fill(visit.input);
    await device.getByRole('button', { name: 'Informer client' }).click();
    await expect(page.getByText('Client informé', { exact: true })).toBeVisible();
    const admin = await adminContext(baseURL!);
    const emails = await admin.get('/api/admin/settings/emails?limit=50');
    expect(emails.ok()).toBe(true);
    const outbox = (await emails.json()) as { kind: string; subject: string }[];
    expect(outbox.some((e) => e.kind === 'client-notification' && e.subject.includes(visit.shown) && e.subject.includes(DEVICE))).toBe(true);
    await admin.dispose();
    await page.reload();
    await expect((await openDevice(page, DEVICE)).getByLabel('Je passerais le :')).toHaveValue(visit.input);

    // Toggle the device to Effectué, then back to À faire (the demo state is left as found).
    const progress = lot.getByText(/^\d+ \/ 8 effectués$/).last();
    const before = Number((await progress.innerText()).split(' ')[0]);
    const toggle = deviceCard(page, DEVICE).getByRole('switch', { name: `Effectué : ${DEVICE}` });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(progress).toHaveText(`${before + 1} / 8 effectués`);
    await expect(deviceCard(page, DEVICE).getByRole('button', { name: 'COMPLÉTER' })).toBeDisabled();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(progress).toHaveText(`${before} / 8 effectués`);
    await expect(deviceCard(page, DEVICE).getByRole('link', { name: 'COMPLÉTER' })).toHaveAttribute('href', /formulaires\.maillon\.fr\/completion\?serie=SN-/);
    await expect(deviceCard(page, DEVICE).getByRole('link', { name: 'Y ALLER' })).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=12%20rue%20du%20March%C3%A9|^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=/,
    );

    // Sort the route.
    await lot.getByRole('button', { name: 'Trier pour économiser ma route' }).click();
    await expect(page.getByText(/^\d+ défibrillateurs triés par proximité$/)).toBeVisible();
    await expect(lot.getByText(/^Tournée triée : /)).toBeVisible();
    await expect(lot.getByText('Trajet depuis l’étape précédente :').first()).toBeVisible();
    await snap(page, 'fieldwork-route-sorted-phone');

    // Comment for the admin, autosaved 1 s after typing; then cleared (autosaved too).
    const comment = lot.getByLabel("Commentaire pour l'admin");
    await comment.fill('Accès par la cour, badge à récupérer en mairie.');
    await expect(lot.getByText('Commentaire enregistré')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Commentaire pour l'admin")).toHaveValue('Accès par la cour, badge à récupérer en mairie.');
    await page.getByLabel("Commentaire pour l'admin").fill('');
    await expect(page.getByText('Commentaire enregistré')).toBeVisible();
    await expectNoHorizontalScroll(page);
  });

  test('parcels: from the mission to its parcels, search, mark received', async ({ page, baseURL }) => {
    const technicianId = await loginTechnician(page);
    // A parcel of our own on the demo lot (the admin creates it), so the demo parcels stay as they are.
    const list = await page.request.get(`/api/shipments?technicianId=${technicianId}&search=${encodeURIComponent(LOT_TITLE)}`);
    const demoParcels = (await list.json()) as { batchId: string | null }[];
    const batchId = demoParcels.find((p) => p.batchId)?.batchId;
    expect(batchId).toBeTruthy();
    const tracking = `MR${String(Date.now()).slice(-8)}`;
    const admin = await adminContext(baseURL!);
    const created = await admin.post('/api/shipments', { data: { batchId, status: 'draft', content: `Kit électrodes e2e ${tracking}`, trackingNumber: tracking } });
    expect(created.status(), await created.text()).toBe(201);
    await admin.dispose();

    await page.goto('/technician/dashboard?tab=missions');
    const lot = page.getByRole('region', { name: LOT_TITLE });
    await lot.getByRole('link', { name: 'Colis pour cette mission' }).click();
    await expect(page).toHaveURL(/tab=packages/);
    await expect(page.getByRole('heading', { name: 'Mes réceptions colis', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Rechercher un colis')).toHaveValue(LOT_TITLE);
    await expect(page.getByText(/vous êtes légalement responsable du matériel/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Suivre le colis' }).first()).toHaveAttribute('href', /^https:\/\/www\.mondialrelay\.fr\/suivi-de-colis\/\?numeroExpedition=MR/);
    await expectNoHorizontalScroll(page);
    await snap(page, 'fieldwork-packages-phone');

    await page.getByRole('button', { name: 'Fermer l’information' }).click();
    await expect(page.getByText(/vous êtes légalement responsable du matériel/)).toBeHidden();

    await page.getByLabel('Rechercher un colis').fill('aucun-colis-ne-correspond');
    await expect(page.getByText('Aucun colis trouvé avec ces critères de recherche.')).toBeVisible();
    await page.getByLabel('Rechercher un colis').fill(tracking);
    const parcel = page.getByRole('article').filter({ hasText: tracking });
    await expect(parcel).toHaveCount(1);
    await expect(parcel.getByText('Brouillon')).toBeVisible();
    await parcel.getByRole('button', { name: 'Marquer comme reçu' }).click();
    await expect(page.getByText('Colis marqué comme reçu', { exact: true })).toBeVisible();
    await expect(parcel.getByText('Réceptionné')).toBeVisible();
    await expect(parcel.getByRole('button', { name: 'Marquer comme reçu' })).toHaveCount(0);
    await snap(page, 'fieldwork-parcel-received-phone');
  });
  test('own lot: every device done, route sorted, mission finished; Terminés for the admin, invoice to submit', async ({ page, baseURL }) => {
    const own = await createRecruitedLot(baseURL!);
    await page.setViewportSize(PHONE);
    await page.goto('/technician/login');
    await page.getByLabel('Email').fill(own.email);
    await page.getByLabel('Mot de passe').fill(own.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/technician\/dashboard/);
    await page.goto('/technician/dashboard?tab=missions');
    const lot = page.getByRole('region', { name: own.title });
    await expect(lot.getByRole('article')).toHaveCount(3);
    await expect(lot.getByRole('button', { name: 'Annuler', exact: true })).toBeEnabled();

    // Informer client needs a date; then it writes the e-mail.
    const first = await openDevice(page, own.devices[0]!);
    await expect(first.getByRole('button', { name: 'Informer client' })).toBeDisabled();
    const visit = dayInFuture(5);
    await first.getByLabel('Je passerais le :').fill(visit.input);
    await first.getByRole('button', { name: 'Informer client' }).click();
    await expect(page.getByText('Client informé', { exact: true })).toBeVisible();

    await lot.getByRole('button', { name: 'Trier pour économiser ma route' }).click();
    await expect(page.getByText('3 défibrillateurs triés par proximité', { exact: true })).toBeVisible();

    for (const [k, device] of own.devices.entries()) {
      const toggle = (await openDevice(page, device)).getByRole('switch', { name: `Effectué : ${device}` });
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-checked', 'true');
      await expect(lot.getByText(`${k + 1} / 3 effectués`).last()).toBeVisible();
    }
    await expect(lot.getByText('Toutes les missions doivent-êtres complétées pour clôturer la mission')).toBeHidden();
    // A device is done: cancelling is no longer possible.
    await expect(lot.getByRole('button', { name: 'Annuler', exact: true })).toBeDisabled();
    await expectNoHorizontalScroll(page);
    await snap(page, 'fieldwork-own-lot-done-phone');
    await lot.getByRole('button', { name: 'Marquer comme terminé' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Marquer comme terminé' }).click();
    await expect(page.getByText('Mission terminée', { exact: true })).toBeVisible();

    const completed = await own.admin.get('/api/mission-batches/completed?limit=100');
    expect(completed.ok()).toBe(true);
    expect(((await completed.json()) as { id: string }[]).some((l) => l.id === own.batchId)).toBe(true);
    const invoices = await page.request.get(`/api/technician/${own.technicianId}/invoices`);
    const invoice = ((await invoices.json()) as { batchId: string; status: string; validatedAmount: number; progression: string }[]).find((i) => i.batchId === own.batchId);
    expect(invoice).toMatchObject({ status: 'Facture à soumettre', validatedAmount: 450, progression: '3/3' });
    await own.admin.dispose();
  });
});
