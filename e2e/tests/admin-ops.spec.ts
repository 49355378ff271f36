import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, TECHNICIAN } from '../fixtures/accounts';
import { SCREENS_DIR } from '../fixtures/screens';

/**
 * Issue 8 at desktop size: the admin's Techniciens, Expéditions, Librairie apprentissage and Réglages tabs.
 * Every record changed here is created here (own technicians, own lot, own resource) and removed at the end,
 * so the demo data other specs rely on is left as it was.
 */

const PASSWORD = 'Admin-Ops-E2E-2026!';
/** The first two quick-add items of the reference list (common/src/reference-lists.json). */
const SHIPMENT_ITEMS = [
  'Batterie Philips M5070A (HeartStart HS1 / FRx)',
  'Cartouche électrodes adulte Philips SMART Pads HS1 (M5071A)',
] as const;

function stamp(): string {
  return `${Date.now().toString(36)}${Math.round(Math.random() * 1e6).toString(36)}`;
}

async function apiContext(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
}

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const admin = await apiContext(baseURL);
  expect((await admin.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
  return admin;
}

/** A pending technician of our own, registered through the public route. */
async function registerTechnician(baseURL: string, firstName: string, lastName: string) {
  const api = await apiContext(baseURL);
  const email = `e2e-admin-ops-${stamp()}@maillon.test`;
  const registered = await api.post('/api/technicians/register', {
    multipart: {
      firstName,
      lastName,
      email,
      password: PASSWORD,
      phone: '06 12 34 56 78',
      companyName: 'Secours Express',
      preferredRelayPoint: 'Relais Bastille, 75011 Paris',
      comments: 'Disponible le week-end.',
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
  return { api, email, technicianId };
}

/** Removes a technician of ours whatever state the test left it in. */
async function removeTechnician(admin: APIRequestContext, technicianId: string) {
  await admin.patch(`/api/technicians/${technicianId}/deactivate`, { data: {} });
  await admin.patch(`/api/technicians/${technicianId}/reject`, { data: {} });
  await admin.delete(`/api/technicians/${technicianId}`);
}

async function loginAdmin(page: Page) {
  await page.goto('/admin/login');
  await page.getByLabel('Mot de passe').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
}

/**
 * A desktop screenshot of the whole page without a full-page capture: that capture briefly changes the window size,
 * which remounts the admin screen (it is desktop-only) and closes open modals. Growing the window's height keeps them.
 */
async function snap(page: Page, name: string) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1440, height: Math.min(Math.max(900, height), 3000) });
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
}

function toast(page: Page, title: string) {
  return page.getByText(title, { exact: true });
}

test.describe('admin operations (desktop)', () => {
  test('technicians: approve, deactivate (session refused at once), restore, reject, delete', async ({
    page,
    baseURL,
    browser,
  }) => {
    const admin = await adminApi(baseURL!);
    const lastName = `Moderation${stamp()}`;
    const name = `Maëlle ${lastName}`;
    const tech = await registerTechnician(baseURL!, 'Maëlle', lastName);
    try {
      await loginAdmin(page);
      await page.goto('/admin/dashboard?tab=technicians');
      await expect(page.getByRole('heading', { name: 'Techniciens', level: 1 })).toBeVisible();
      const pills = page.getByRole('radiogroup', { name: 'Statut des techniciens' });
      await expect(pills.getByRole('radio', { name: /À modérer/ })).toHaveAttribute('aria-checked', 'true');
      await expect(page.getByRole('list', { name: 'Techniciens' })).toBeVisible();
      await pills.getByRole('radio', { name: /Actifs/ }).click();
      await snap(page, 'admin-technicians-desktop');
      await pills.getByRole('radio', { name: /À modérer/ }).click();
      await page.getByLabel('Recherche', { exact: true }).fill(lastName);
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
      await expect(card).toHaveCount(1);
      await expect(card.getByText('Secours Express')).toBeVisible();
      await expect(card.getByText('Paris (75)')).toBeVisible();
      await expect(card.getByText('Seine-Saint-Denis (93)')).toBeVisible();
      await expect(card.getByText('Disponible le week-end.')).toBeVisible();
      await expect(card.getByText('Formation incomplète')).toBeVisible();
      await expect(pills.getByRole('radio', { name: /À modérer/ })).toContainText('1');
      await snap(page, 'admin-technicians-pending-desktop');

      // Department filter: the technician is not in Nord (59).
      await page.getByLabel('Département').selectOption('59');
      await expect(page.getByText('Aucun technicien ne correspond à ces critères')).toBeVisible();
      await page.getByLabel('Département').selectOption('93');
      await expect(card).toHaveCount(1);

      await card.getByRole('button', { name: 'Approuver' }).click();
      await expect(toast(page, 'Technicien approuvé')).toBeVisible();
      await expect(card).toHaveCount(0);
      const emails = (await (await admin.get('/api/admin/settings/emails?limit=50')).json()) as { to: string; subject: string }[];
      expect(emails.some((e) => e.to === tech.email && /validé/.test(e.subject))).toBe(true);

      // The approved technician can log in; keep that session open.
      expect((await tech.api.post('/api/auth/login', { data: { email: tech.email, password: PASSWORD } })).ok()).toBe(true);
      expect((await tech.api.get('/api/auth/me')).status()).toBe(200);

      await pills.getByRole('radio', { name: /Actifs/ }).click();
      await expect(card).toHaveCount(1);
      await expect(card.getByText('Actif', { exact: true })).toBeVisible();
      await snap(page, 'admin-technicians-active-desktop');
      await card.getByRole('button', { name: 'Désactiver' }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(`Désactiver ${name} ?`);
      await confirm.getByRole('button', { name: 'Désactiver' }).click();
      await expect(toast(page, 'Technicien désactivé')).toBeVisible();

      // Its open session is refused on the next call, and it cannot log in again.
      expect((await tech.api.get('/api/auth/me')).status()).toBe(401);
      const techPage = await (await browser.newContext({ baseURL })).newPage();
      await techPage.goto('/technician/login');
      await techPage.getByLabel('Email').fill(tech.email);
      await techPage.getByLabel('Mot de passe').fill(PASSWORD);
      await techPage.getByRole('button', { name: 'Se connecter' }).click();
      await expect(techPage.getByText('Compte désactivé', { exact: true })).toBeVisible();
      await expect(techPage).toHaveURL(/\/technician\/login$/);
      await techPage.context().close();

      await pills.getByRole('radio', { name: /Désactivés/ }).click();
      await expect(card.getByText('Désactivé', { exact: true })).toBeVisible();
      await snap(page, 'admin-technicians-inactive-desktop');
      await card.getByRole('button', { name: 'Remettre' }).click();
      await expect(toast(page, 'Technicien remis en attente de modération')).toBeVisible();

      await pills.getByRole('radio', { name: /À modérer/ }).click();
      await card.getByRole('button', { name: 'Rejeter' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Rejeter' }).click();
      await expect(toast(page, 'Technicien rejeté')).toBeVisible();

      // Rejected accounts are listed under Désactivés, from where they can be deleted for good.
      await pills.getByRole('radio', { name: /Désactivés/ }).click();
      await expect(card.getByText('Rejeté', { exact: true })).toBeVisible();
      await card.getByRole('button', { name: 'Supprimer' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer définitivement' }).click();
      await expect(toast(page, 'Technicien supprimé définitivement')).toBeVisible();
      await expect(card).toHaveCount(0);
      expect((await admin.get(`/api/technicians?search=${encodeURIComponent(lastName)}`)).headers()['x-total-count']).toBe('0');
      expect((await tech.api.post('/api/auth/login', { data: { email: tech.email, password: PASSWORD } })).status()).toBe(401);
    } finally {
      await removeTechnician(admin, tech.technicianId);
      await tech.api.dispose();
      await admin.dispose();
    }
  });

  test('shipments: create for a recruited lot, ship, the technician receives it, edit, cancel, lot filter', async ({
    page,
    baseURL,
    browser,
  }) => {
    // Two browsers and a dozen set-up calls: give it room on a loaded machine.
    test.setTimeout(120_000);
    const admin = await adminApi(baseURL!);
    const tag = stamp();
    const tech = await registerTechnician(baseURL!, 'Colin', `Colis${tag}`);
    const lotTitle = `Lot colis e2e ${tag}`;
    let batchId = '';
    try {
      // Our own lot with our technician recruited on it.
      expect((await admin.patch(`/api/technicians/${tech.technicianId}/approve`, { data: {} })).status()).toBe(200);
      expect((await tech.api.post('/api/auth/login', { data: { email: tech.email, password: PASSWORD } })).ok()).toBe(true);
      for (const resource of (await (await tech.api.get('/api/learning-resources')).json()) as { id: string }[]) {
        expect(
          (
            await tech.api.post(`/api/learning-resources/${resource.id}/view`, { data: { technicianId: tech.technicianId } })
          ).ok(),
        ).toBe(true);
      }
      const deadline = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
      const lotBody = {
        title: lotTitle,
        description: 'Lot de la recette expéditions',
        price: 300,
        departments: ['75'],
        tags: ['Maintenance'],
        deadline,
      };
      const lot = await admin.post('/api/mission-batches', { data: lotBody });
      expect(lot.status(), await lot.text()).toBeLessThan(300);
      batchId = ((await lot.json()) as { id: string }).id;
      expect((await admin.put(`/api/mission-batches/${batchId}`, { data: { ...lotBody, visibility: 'visible' } })).status()).toBe(
        200,
      );
      const applied = await tech.api.post('/api/applications/batch', {
        data: { batchId, technicianId: tech.technicianId, status: 'En attente' },
      });
      expect(applied.status(), await applied.text()).toBeLessThan(300);
      const applicationId = ((await applied.json()) as { id: string }).id;
      expect((await admin.patch(`/api/applications/${applicationId}/status`, { data: { status: 'Recruté' } })).status()).toBe(
        200,
      );

      await loginAdmin(page);
      await page.goto('/admin/dashboard?tab=shipments');
      await expect(page.getByRole('heading', { name: 'Expéditions', level: 1 })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Expéditions' })).toBeVisible();
      await snap(page, 'admin-shipments-all-desktop');

      // The lot is required.
      await page.getByRole('button', { name: 'Nouvelle expédition' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouvelle expédition' });
      await expect(dialog.getByLabel('Code postal de destination')).toHaveValue('Non renseigné');
      await expect(dialog.getByLabel('Date d’expédition')).not.toHaveValue('');
      // The lot picker opened without typing: the first lots by title, in the modal, unclipped (at the desktop size
      // itself, not snap's grown window). Escape closes the list, not the modal.
      const lotPicker = dialog.getByLabel('Lot de mission');
      await expect(lotPicker).toHaveAttribute('placeholder', 'Choisir un lot');
      const lotList = dialog.getByRole('listbox', { name: 'Lots de mission' });
      const lotOptions = lotList.getByRole('option');
      await lotPicker.click();
      // Ours and the demo's lots with a recruit.
      await expect(lotOptions.nth(1)).toBeVisible();
      await lotPicker.press('ArrowDown');
      await expect(lotPicker).toHaveAttribute('aria-activedescendant', /.+/);
      await page.screenshot({ path: `${SCREENS_DIR}/admin-shipment-lot-picker-desktop.png` });
      await lotPicker.press('Escape');
      await expect(lotList).toBeHidden();
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Créer l’expédition' }).click();
      await expect(dialog.getByText('Veuillez sélectionner un lot de mission')).toBeVisible();

      // The lot is searched as you type (part of its title); technician and destination come from the lot's recruit.
      await lotPicker.fill(`COLIS E2E ${tag}`);
      // One lot, named by its title and described by its recipient (two lots may share a title).
      await expect(lotOptions).toHaveCount(1);
      await expect(lotOptions.first()).toHaveAccessibleName(lotTitle);
      await expect(lotOptions.first()).toHaveAccessibleDescription(`Colin Colis${tag} · Relais Bastille, 75011 Paris`);
      await lotOptions.first().click();
      await expect(lotPicker).toHaveValue(lotTitle);
      await expect(lotList).toBeHidden();
      await expect(dialog.getByText('Veuillez sélectionner un lot de mission')).toBeHidden();
      await expect(dialog.getByLabel('Technicien')).toHaveValue(`Colin Colis${tag}`);
      await expect(dialog.getByLabel('Destination (point relais)')).toHaveValue('Relais Bastille, 75011 Paris');
      const quickAdd = dialog.getByRole('group', { name: 'Ajout rapide' });
      await quickAdd.getByRole('button', { name: SHIPMENT_ITEMS[0] }).click();
      await quickAdd.getByRole('button', { name: SHIPMENT_ITEMS[1] }).click();
      await expect(dialog.getByLabel('Contenu du colis')).toHaveValue(`${SHIPMENT_ITEMS[0]}, ${SHIPMENT_ITEMS[1]}`);
      await dialog.getByLabel('Numéro de suivi').fill(`MR${tag.toUpperCase()}`);
      await snap(page, 'admin-shipment-create-desktop');
      await dialog.getByRole('button', { name: 'Créer l’expédition' }).click();
      await expect(toast(page, 'Expédition créée')).toBeVisible();
      await expect(dialog).toBeHidden();

      await page.getByLabel('Recherche', { exact: true }).fill(`Colis${tag}`);
      const cards = page.getByRole('listitem');
      const first = cards.filter({ hasText: `MR${tag.toUpperCase()}` });
      await expect(first).toHaveCount(1);
      // The technician filter searches the technicians with parcels as you type, « Nom Prénom » as « Prénom Nom ».
      const technicianFilter = page.getByLabel('Technicien');
      await technicianFilter.fill(`Colis${tag} Colin`);
      await page.getByRole('option', { name: `Colin Colis${tag}` }).click();
      await expect(technicianFilter).toHaveValue(`Colin Colis${tag}`);
      await expect(first).toHaveCount(1);
      await expect(page.getByText('1 expédition', { exact: true })).toBeVisible();
      await expect(first.getByText('Brouillon', { exact: true })).toBeVisible();
      await expect(first.getByText('Relais Bastille, 75011 Paris')).toBeVisible();
      await expect(first.getByRole('link', { name: 'Suivre' })).toHaveAttribute(
        'href',
        `https://www.mondialrelay.fr/suivi-de-colis/?numeroExpedition=MR${tag.toUpperCase()}`,
      );
      await first.getByRole('button', { name: 'Expédié' }).click();
      await expect(toast(page, 'Expédition marquée comme expédiée')).toBeVisible();
      await expect(first.getByText('Expédié', { exact: true })).toBeVisible();
      await expect(first.getByRole('button', { name: 'Expédié' })).toHaveCount(0);
      await snap(page, 'admin-shipments-desktop');

      // The technician sees the parcel and marks it received.
      const techContext = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
      const techPage = await techContext.newPage();
      await techPage.goto('/technician/login');
      await techPage.getByLabel('Email').fill(tech.email);
      await techPage.getByLabel('Mot de passe').fill(PASSWORD);
      await techPage.getByRole('button', { name: 'Se connecter' }).click();
      await expect(techPage).toHaveURL(/\/technician\/dashboard/);
      await techPage.goto('/technician/dashboard?tab=packages');
      const parcel = techPage.getByRole('article').filter({ hasText: `MR${tag.toUpperCase()}` });
      await parcel.getByRole('button', { name: 'Marquer comme reçu' }).click();
      await expect(techPage.getByText('Colis marqué comme reçu', { exact: true })).toBeVisible();
      await techContext.close();

      // The admin sees it Réceptionné: no Annuler, no Expédié.
      await page.reload();
      const pills = page.getByRole('radiogroup', { name: 'Statut des expéditions' });
      await page.getByLabel('Recherche', { exact: true }).fill(`Colis${tag}`);
      await pills.getByRole('radio', { name: /Réceptionnées/ }).click();
      await expect(first.getByText('Réceptionné', { exact: true })).toBeVisible();
      await expect(first.getByRole('button', { name: 'Annuler' })).toHaveCount(0);
      await expect(first.getByRole('button', { name: 'Modifier' })).toBeVisible();

      // A second parcel, edited, then cancelled: dimmed and without actions.
      await pills.getByRole('radio', { name: /Toutes/ }).click();
      await page.getByRole('button', { name: 'Nouvelle expédition' }).click();
      await dialog.getByLabel('Lot de mission').fill(tag);
      await dialog.getByRole('option', { name: lotTitle }).click();
      await expect(dialog.getByLabel('Technicien')).toHaveValue(`Colin Colis${tag}`);
      await dialog.getByLabel('Contenu du colis').fill(`Signalétique e2e ${tag}`);
      await dialog.getByRole('button', { name: 'Créer l’expédition' }).click();
      await expect(toast(page, 'Expédition créée')).toBeVisible();
      const second = cards.filter({ hasText: `Signalétique e2e ${tag}` });
      await expect(second).toHaveCount(1);
      await second.getByRole('button', { name: 'Suivre' }).click();
      await expect(toast(page, 'Numéro de suivi non disponible')).toBeVisible();

      await second.getByRole('button', { name: 'Modifier' }).click();
      const edit = page.getByRole('dialog', { name: 'Modifier l’expédition' });
      await expect(edit.getByLabel('Statut')).toHaveValue('draft');
      // The parcel's own lot and recipient, as the parcel tells them.
      await expect(edit.getByLabel('Lot de mission')).toHaveValue(lotTitle);
      await expect(edit.getByLabel('Technicien')).toHaveValue(`Colin Colis${tag}`);
      await expect(edit.getByLabel('Statut').locator('option')).toHaveCount(4);
      await edit.getByLabel('Contenu du colis').fill(`Signalétique e2e ${tag} + affiches`);
      await edit.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(toast(page, 'Expédition modifiée')).toBeVisible();
      const edited = cards.filter({ hasText: `Signalétique e2e ${tag} + affiches` });
      await expect(edited).toHaveCount(1);

      await edited.getByRole('button', { name: 'Annuler' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: "Annuler l'expédition" }).click();
      await expect(toast(page, 'Expédition annulée')).toBeVisible();
      await expect(edited.getByText('Annulé', { exact: true })).toBeVisible();
      await expect(edited.getByRole('button')).toHaveCount(0);
      await expect(pills.getByRole('radio', { name: /Annulés/ })).toContainText('1');

      // "Voir Colis" from a lot card lands here filtered on the lot.
      await page.goto(`/admin/dashboard?tab=shipments&batchId=${batchId}`);
      await expect(page.getByText(`Colis du lot : ${lotTitle}`)).toBeVisible();
      await expect(page.getByText('2 expéditions')).toBeVisible();
      await snap(page, 'admin-shipments-lot-filter-desktop');
      // « Nouvelle expédition » there starts on that lot and its recruit.
      await page.getByRole('button', { name: 'Nouvelle expédition' }).click();
      await expect(dialog.getByLabel('Lot de mission')).toHaveValue(lotTitle);
      await expect(dialog.getByLabel('Technicien')).toHaveValue(`Colin Colis${tag}`);
      await expect(dialog.getByLabel('Destination (point relais)')).toHaveValue('Relais Bastille, 75011 Paris');
      await dialog.getByRole('button', { name: 'Annuler' }).click();
      await expect(dialog).toBeHidden();
      await page.getByLabel('Recherche', { exact: true }).fill('aucune-expedition-ne-correspond');
      await expect(page.getByText('Aucune expédition trouvée.')).toBeVisible();
    } finally {
      await removeTechnician(admin, tech.technicianId);
      if (batchId) await admin.delete(`/api/mission-batches/${batchId}`);
      await tech.api.dispose();
      await admin.dispose();
    }
  });

  test('library: create, edit, a technician reads it, readers modal, delete', async ({ page, baseURL }) => {
    const admin = await adminApi(baseURL!);
    const title = `Module e2e ${stamp()}`;
    try {
      await loginAdmin(page);
      await page.goto('/admin/dashboard?tab=library');
      await expect(page.getByRole('heading', { name: 'Librairie apprentissage', level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Nouvelle Ressource' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouvelle Ressource' });
      await dialog.getByRole('button', { name: 'Créer la ressource' }).click();
      await expect(dialog.getByText('Le titre est requis')).toBeVisible();
      await expect(dialog.getByText('La description est requise')).toBeVisible();
      await expect(dialog.getByText('Le lien est requis')).toBeVisible();
      await dialog.getByLabel('Titre').fill(title);
      await dialog.getByLabel('Description').fill('Les gestes à connaître avant la première visite.');
      await dialog.getByLabel('Type').selectOption({ label: 'Vidéo' });
      await dialog.getByLabel('Lien').fill('https://maillon.fr/formation/e2e');
      await dialog.getByLabel('Durée (minutes)').fill('0');
      await dialog.getByRole('button', { name: 'Créer la ressource' }).click();
      await expect(dialog.getByText('La durée doit être d’au moins 1 minute')).toBeVisible();
      await dialog.getByLabel('Durée (minutes)').fill('6');
      await dialog.getByRole('button', { name: 'Créer la ressource' }).click();
      await expect(toast(page, 'Ressource créée')).toBeVisible();

      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
      await expect(card).toHaveCount(1);
      await expect(card.getByText('6 min')).toBeVisible();
      await expect(card.getByRole('button', { name: `Lecteurs de ${title}` })).toContainText('0 lecteur');

      await card.getByRole('button', { name: `Modifier ${title}` }).click();
      const edit = page.getByRole('dialog', { name: 'Modifier la ressource' });
      await expect(edit.getByLabel('Titre')).toHaveValue(title);
      await edit.getByLabel('Titre').fill(`${title} (v2)`);
      await edit.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(toast(page, 'Ressource modifiée')).toBeVisible();
      const edited = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `${title} (v2)` }) });
      await expect(edited).toHaveCount(1);

      await edited.getByRole('button', { name: `Lecteurs de ${title} (v2)` }).click();
      const readers = page.getByRole('dialog', { name: 'Lecteurs' });
      await expect(readers.getByText('Aucune lecture enregistrée')).toBeVisible();
      await readers.getByRole('button', { name: 'Fermer' }).click();

      // The demo technician reads it through its own route.
      const tech = await apiContext(baseURL!);
      expect((await tech.post('/api/auth/login', { data: TECHNICIAN })).ok()).toBe(true);
      const me = (await (await tech.get('/api/auth/me')).json()) as {
        technician: { id: string; firstName: string; lastName: string };
      };
      const resources = (await (await tech.get(`/api/learning-resources?search=${encodeURIComponent(title)}`)).json()) as {
        id: string;
      }[];
      expect(resources).toHaveLength(1);
      expect(
        (await tech.post(`/api/learning-resources/${resources[0]!.id}/view`, { data: { technicianId: me.technician.id } })).ok(),
      ).toBe(true);
      await tech.dispose();

      await page.reload();
      await expect(edited.getByRole('button', { name: `Lecteurs de ${title} (v2)` })).toContainText('1 lecteur');
      await snap(page, 'admin-library-desktop');
      await edited.getByRole('button', { name: `Lecteurs de ${title} (v2)` }).click();
      const readerName = `${me.technician.firstName} ${me.technician.lastName}`;
      await expect(readers.getByText(readerName)).toBeVisible();
      await expect(readers.getByText(/^Lu le \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
      await snap(page, 'admin-library-readers-desktop');
      await readers.getByLabel('Rechercher un technicien').fill('personne-de-ce-nom');
      await expect(readers.getByText('Aucune lecture enregistrée')).toBeVisible();
      await readers.getByLabel('Rechercher un technicien').fill(me.technician.lastName);
      await expect(readers.getByText(readerName)).toBeVisible();
      await readers.getByRole('button', { name: 'Fermer' }).click();

      await page.getByLabel('Recherche', { exact: true }).fill(title);
      await expect(page.getByRole('list', { name: 'Ressources' }).getByRole('listitem')).toHaveCount(1);
      await edited.getByRole('button', { name: `Supprimer ${title} (v2)` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
      await expect(toast(page, 'Ressource supprimée')).toBeVisible();
      await expect(edited).toHaveCount(0);
    } finally {
      // Never leave a module behind: it would make every technician's training incomplete.
      const left = (await (await admin.get(`/api/learning-resources?search=${encodeURIComponent(title)}`)).json()) as {
        id: string;
      }[];
      for (const resource of left) await admin.delete(`/api/learning-resources/${resource.id}`);
      await admin.dispose();
    }
  });

  test('settings: integrations, identifier, cloud usage, logout', async ({ page }) => {
    await loginAdmin(page);
    await page.goto('/admin/dashboard?tab=settings');
    await expect(page.getByRole('heading', { name: 'Réglages', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Mes APIs' })).toBeVisible();
    const sms = page.getByLabel('Fournisseur SMS');
    await expect(sms.getByText('Désactivé')).toBeVisible();
    const mail = page.getByLabel('Fournisseur e-mail');
    await expect(mail.getByText('Journalisation uniquement')).toBeVisible();
    await expect(page.getByLabel('Stockage des données').getByText('PGlite (embarquée, sur disque local)')).toBeVisible();
    const tool = page.getByLabel('Outil de suggestion de visites');
    await expect(tool.getByText('Activé')).toBeVisible();
    await expect(tool.getByText(/POST http:\/\/localhost:\d+\/api\/jobs\/ingest/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Derniers e-mails' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Mon identifiant' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(ADMIN.email);
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
    await expect(page.getByText(/Le changement de mot de passe doit passer par le fournisseur/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Cloud Usage' })).toBeVisible();
    for (const text of ['10k requêtes par mois', 'Trimestrielle', '04/08/2025', 'Paris et Marseille', 'Glasgow']) {
      await expect(page.getByText(text, { exact: true })).toBeVisible();
    }
    await snap(page, 'admin-settings-desktop');
    await page.getByRole('main').getByRole('button', { name: 'Déconnexion' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  });
});
