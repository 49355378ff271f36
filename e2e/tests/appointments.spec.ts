import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, PHONE } from '../fixtures/accounts';
import { snap } from '../fixtures/screens';
import { openDeviceCard } from '../fixtures/field-lot';

/**
 * Issue 19 at phone size: the technician plans a morning visit and informs the client; the site contact opens the
 * e-mailed link (taken from the outbox through the admin API) on a phone and proposes another date; the technician
 * accepts it in the Recruté view, and the site gets the updated invitation. Then the technician's calendar address
 * in Mon compte. Everything runs on a technician and a lot created here.
 */

function dayInFuture(days: number): { input: string; shown: string } {
  const date = new Date(Date.now() + days * 86_400_000);
  const input = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  const [y, m, d] = input.split('-');
  return { input, shown: `${d}/${m}/${y}` };
}

async function apiContext(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
}

async function adminContext(baseURL: string): Promise<APIRequestContext> {
  const request = await apiContext(baseURL);
  expect((await request.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
  return request;
}

/** A trained, approved technician recruited on a visible lot of one device whose site has an e-mail. */
async function recruitedDevice(baseURL: string) {
  const admin = await adminContext(baseURL);
  const tech = await apiContext(baseURL);
  const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
  const email = `e2e-rdv-${stamp}@maillon.test`;
  const password = 'Rendez-Vous-E2E-2026!';
  const registered = await tech.post('/api/technicians/register', {
    multipart: {
      firstName: 'Inès',
      lastName: 'Rendezvous',
      email,
      password,
      phone: '06 45 67 89 10',
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
  expect((await tech.patch(`/api/technicians/${technicianId}/professional`, { data: { companyName: 'Cœur Service', siret: '73282932000074' } })).ok()).toBe(true);
  const resources = (await (await tech.get('/api/learning-resources')).json()) as { id: string }[];
  for (const resource of resources) expect((await tech.post(`/api/learning-resources/${resource.id}/view`, { data: { technicianId } })).ok()).toBe(true);

  const title = `Rendez-vous e2e ${stamp}`;
  const deadline = dayInFuture(30).input;
  const lot = await admin.post('/api/mission-batches', { data: { title, description: 'Lot de la recette rendez-vous', price: 150, departments: ['75'], tags: ['Maintenance'], deadline } });
  expect(lot.status(), await lot.text()).toBeLessThan(300);
  const batchId = ((await lot.json()) as { id: string }).id;
  const device = `Maintenance - Médiathèque Françoise-Sagan ${stamp}`;
  const siteEmail = `accueil-${stamp}@mediatheque.example.fr`;
  const mission = await admin.post('/api/missions', {
    data: {
      title: device,
      description: 'Maintenance préventive',
      location: '8 rue Léon Schwartzenberg, 75010 Paris',
      department: '75',
      budget: 150,
      deadline,
      status: 'active',
      batchId,
      serialNumber: `SN-RDV-${stamp}`,
      clientName: 'Médiathèque Françoise-Sagan',
      defibrillatorModel: 'Philips HeartStart FRx',
      visitType: 'Maintenance préventive',
      telSite: '01 53 24 69 70',
      emailSite: siteEmail,
      postalCode: '75010',
      city: 'Paris',
    },
  });
  expect(mission.status(), await mission.text()).toBeLessThan(300);
  const visible = await admin.put(`/api/mission-batches/${batchId}`, {
    data: { title, description: 'Lot de la recette rendez-vous', price: 150, departments: ['75'], tags: ['Maintenance'], deadline, visibility: 'visible' },
  });
  expect(visible.status(), await visible.text()).toBe(200);
  const applied = await tech.post('/api/applications/batch', { data: { batchId, technicianId, status: 'En attente' } });
  expect(applied.status(), await applied.text()).toBeLessThan(300);
  const applicationId = ((await applied.json()) as { id: string }).id;
  expect((await admin.patch(`/api/applications/${applicationId}/status`, { data: { status: 'Recruté' } })).status()).toBe(200);
  await tech.dispose();
  return { admin, email, password, title, device, siteEmail };
}

interface OutboxRow {
  id: string;
  kind: string;
  to: string;
  subject: string;
}

/** The site's latest e-mail of a kind, read through the admin API of Réglages' outbox. */
async function latestEmailTo(admin: APIRequestContext, to: string, kind: string) {
  const list = (await (await admin.get('/api/admin/settings/emails?limit=50')).json()) as OutboxRow[];
  const row = list.find((e) => e.to === to && e.kind === kind);
  expect(row, `e-mail ${kind} pour ${to}`).toBeDefined();
  const detail = await admin.get(`/api/admin/settings/emails/${row!.id}`);
  expect(detail.ok()).toBe(true);
  return (await detail.json()) as OutboxRow & { text: string; attachments: { fileName: string; disposition: string }[] };
}

async function loginOnPhone(page: Page, email: string, password: string) {
  await page.setViewportSize(PHONE);
  await page.goto('/technician/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/technician\/dashboard/);
}

async function expectNoHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test.describe('appointments (phone)', () => {
  test('the site contact proposes another date from the link; the technician accepts it', async ({ page, browser, baseURL }) => {
    const own = await recruitedDevice(baseURL!);
    const planned = dayInFuture(7);
    const proposed = dayInFuture(9);

    // The technician plans a morning visit and informs the client.
    await loginOnPhone(page, own.email, own.password);
    await page.goto('/technician/dashboard?tab=missions');
    const card = await openDeviceCard(page, own.device);
    await card.getByLabel('Je passerais le :').fill(planned.input);
    await card.getByLabel('Créneau').selectOption({ label: 'Matin (8 h – 12 h)' });
    await card.getByRole('button', { name: 'Informer client' }).click();
    await expect(page.getByText('Client informé', { exact: true })).toBeVisible();
    await expect(card.getByText(/^Site prévenu le \d{2}\/\d{2}\/\d{4} · en attente de sa réponse$/)).toBeVisible();

    // The e-mail of Réglages' outbox carries the link and the invitation.
    const invitation = await latestEmailTo(own.admin, own.siteEmail, 'client-notification');
    expect(invitation.subject).toContain(planned.shown);
    expect(invitation.text).toContain('le matin (8 h – 12 h)');
    expect(invitation.attachments).toEqual([expect.objectContaining({ fileName: 'visite.ics', disposition: 'calendar' })]);
    const link = /https?:\/\/[^\s]+\/rdv\/[A-Za-z0-9_-]{43}/.exec(invitation.text)?.[0];
    expect(link).toBeTruthy();

    // The site contact, on a phone, without an account.
    const siteContext = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    const site = await siteContext.newPage();
    await site.goto(new URL(link!).pathname);
    await expect(site.getByRole('heading', { name: 'Visite de votre défibrillateur' })).toBeVisible();
    await expect(site.getByText('le matin (8 h – 12 h)')).toBeVisible();
    await expect(site.getByText('Technicien : Inès (Cœur Service)')).toBeVisible();
    await expect(site.getByText('Rendezvous')).toHaveCount(0);
    await expect(site.getByText('06 45 67 89 10')).toHaveCount(0);
    await expect(site.getByRole('button', { name: 'Confirmer' })).toBeVisible();
    await expectNoHorizontalScroll(site);
    await snap(site, 'appointments-site-link-phone');

    await site.getByRole('button', { name: 'Proposer une autre date' }).click();
    await site.getByRole('button', { name: 'Envoyer la proposition' }).click();
    await expect(site.getByText('Choisissez la date que vous proposez')).toBeVisible();
    await site.getByLabel('Date proposée').fill(proposed.input);
    await site.getByLabel('Créneau').selectOption({ label: 'Après-midi (14 h – 18 h)' });
    await site.getByLabel('Message pour le technicien (facultatif)').fill('La médiathèque est fermée le matin. Demandez Mme Roux à l’accueil.');
    await expectNoHorizontalScroll(site);
    await snap(site, 'appointments-site-propose-form-phone');
    await site.getByRole('button', { name: 'Envoyer la proposition' }).click();
    await expect(site.getByText('Merci, votre proposition a été envoyée')).toBeVisible();
    await snap(site, 'appointments-site-proposal-sent-phone');
    await site.reload();
    await expect(site.getByText('Ce lien a déjà été utilisé')).toBeVisible();
    await expect(site.getByRole('button', { name: 'Confirmer' })).toHaveCount(0);
    await site.goto('/rdv/ce-lien-n-existe-pas');
    await expect(site.getByRole('heading', { name: 'Lien introuvable' })).toBeVisible();
    await snap(site, 'appointments-site-unknown-link-phone');
    await siteContext.close();

    // The technician was told by e-mail, and sees the proposal in the Recruté view.
    const told = await latestEmailTo(own.admin, own.email, 'technician-site-proposal');
    expect(told.text).toContain('La médiathèque est fermée le matin.');
    await page.reload();
    // The compact row already says the site answered; the full card has the proposal.
    await expect(page.getByRole('article', { name: own.device, exact: true }).getByText('Date proposée par le site')).toBeVisible();
    await openDeviceCard(page, own.device);
    const proposal = card.getByRole('status').filter({ hasText: `Le site propose le ${proposed.shown}, l’après-midi (14 h – 18 h)` });
    await expect(proposal).toBeVisible();
    await expect(proposal.getByText('« La médiathèque est fermée le matin. Demandez Mme Roux à l’accueil. »')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await snap(page, 'appointments-technician-proposal-phone');

    await proposal.getByRole('button', { name: 'Accepter' }).click();
    await expect(page.getByText('Proposition acceptée', { exact: true })).toBeVisible();
    await expect(card.getByText(/^Date proposée par le site, acceptée le \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
    await expect(card.getByLabel('Je passerais le :')).toHaveValue(proposed.input);
    await expect(card.getByLabel('Créneau')).toHaveValue('afternoon');
    await snap(page, 'appointments-technician-accepted-phone');

    // The site received the updated invitation with a fresh link.
    const update = await latestEmailTo(own.admin, own.siteEmail, 'client-notification');
    expect(update.subject).toContain(`Nouvelle date confirmée le ${proposed.shown}`);
    expect(update.text).toContain('l’après-midi (14 h – 18 h)');
    expect(update.attachments).toEqual([expect.objectContaining({ disposition: 'calendar' })]);
    await own.admin.dispose();
  });

  test('Mon compte: the private calendar address, copied, then regenerated', async ({ page, context, baseURL }) => {
    const own = await recruitedDevice(baseURL!);
    await own.admin.dispose();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL!).origin });
    await loginOnPhone(page, own.email, own.password);
    // A planned visit, so the feed has an event.
    await page.goto('/technician/dashboard?tab=missions');
    const card = await openDeviceCard(page, own.device);
    await card.getByLabel('Je passerais le :').fill(dayInFuture(4).input);
    await card.getByRole('button', { name: 'Informer client' }).click();
    await expect(page.getByText('Client informé', { exact: true })).toBeVisible();

    await page.goto('/technician/dashboard?tab=profile');
    const calendar = page.getByRole('region', { name: 'Mon agenda' });
    await expect(calendar.getByText('Vous n’avez pas encore d’adresse d’agenda.')).toBeVisible();
    await calendar.getByRole('button', { name: 'Créer mon adresse d’agenda' }).click();
    const address = calendar.getByLabel('Adresse de votre agenda');
    await expect(address).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const first = await address.inputValue();
    await expect(calendar.getByRole('link', { name: 'S’abonner sur cet appareil' })).toHaveAttribute('href', first.replace(/^https?:/, 'webcal:'));
    await calendar.getByRole('button', { name: 'Copier' }).click();
    await expect(page.getByText('Adresse copiée', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
    await expectNoHorizontalScroll(page);
    await snap(page, 'appointments-calendar-address-phone');

    const anonymous = await apiContext(baseURL!);
    const feed = await anonymous.get(new URL(first).pathname);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    expect(await feed.text()).toContain('Médiathèque Françoise-Sagan');
    const etag = feed.headers().etag!;
    expect((await anonymous.get(new URL(first).pathname, { headers: { 'If-None-Match': etag } })).status()).toBe(304);

    await calendar.getByRole('button', { name: 'Régénérer' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Régénérer' }).click();
    await expect(page.getByText('Nouvelle adresse créée', { exact: true })).toBeVisible();
    await expect(address).not.toHaveValue(first);
    expect((await anonymous.get(new URL(first).pathname)).status()).toBe(404);
    expect((await anonymous.get(new URL(await address.inputValue()).pathname)).status()).toBe(200);
    await anonymous.dispose();
  });
});
