import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { ADMIN, PHONE, TECHNICIAN } from '../fixtures/accounts';
import { snap } from '../fixtures/screens';

/**
 * Issue 4 journeys at phone size: training (Me former) and its banner, the lot search, applying, the applications list.
 * Other specs share the demo data, so this one creates its own technician (registration + approval through the API)
 * and picks at run time a lot that is still open; it only reads the demo technician's data.
 */

const DEMO_PASSWORD = TECHNICIAN.password;
interface Lot {
  id: string;
  title: string;
  hasApplied: boolean;
  isAssigned: boolean;
}
interface Counts {
  formation: { total: number; read: number };
  applications: number;
}

/** Registers a technician through the public API (and approves it as the admin) in a context of its own. */
async function registerTechnician(baseURL: string, { approve }: { approve: boolean }) {
  const request = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
  const email = `e2e-lots-${Date.now()}-${Math.round(Math.random() * 1e6)}@maillon.test`;
  const password = 'Lots-E2E-2026!';
  const response = await request.post('/api/technicians/register', {
    multipart: {
      firstName: 'Inès',
      lastName: 'Lotier',
      email,
      password,
      country: 'France',
      departments: JSON.stringify(['33']),
      termsAccepted: 'true',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { technicianId } = (await response.json()) as { technicianId: string };
  if (approve) {
    const adminLogin = await request.post('/api/auth/login', { data: ADMIN });
    expect(adminLogin.ok()).toBe(true);
    const approved = await request.patch(`/api/technicians/${technicianId}/approve`, { data: {} });
    expect(approved.status(), await approved.text()).toBe(200);
  }
  await request.dispose();
  return { email, password, technicianId };
}

async function loginAs(page: Page, email: string, password: string) {
  await page.goto('/technician/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/technician\/dashboard/);
}

async function counts(page: Page, technicianId: string): Promise<Counts> {
  const response = await page.request.get(`/api/technicians/${technicianId}/counts`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as Counts;
}

/** Full-page screenshot from the top (the sticky phone header would otherwise cover the middle), no horizontal scroll. */
async function shot(page: Page, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'pas de défilement horizontal').toBeLessThanOrEqual(PHONE.width);
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, name);
}

const banner = (page: Page) => page.getByRole('alert').filter({ hasText: 'modules de formations sur' });
const lotCard = (page: Page, title: string) => page.getByRole('list', { name: 'Lots de missions' }).getByRole('listitem').filter({ hasText: title });

test.describe('technician: training, lots and applications', () => {
  test.beforeEach(async ({ page, context }) => {
    await page.setViewportSize(PHONE);
    // Training modules open in a new tab: close them, the journey stays on the dashboard.
    context.on('page', (opened) => void opened.close());
  });

  test('Me former lowers the banner count to zero, then the technician applies and finds the lot under En attente', async ({ page, baseURL }) => {
    const account = await registerTechnician(baseURL!, { approve: true });
    await loginAs(page, account.email, account.password);

    const start = await counts(page, account.technicianId);
    const total = start.formation.total;
    expect(total).toBeGreaterThan(0);
    expect(start.formation.read).toBe(0);
    await expect(banner(page)).toContainText(`Il vous reste ${total} modules de formations sur ${total} à compléter avant de pouvoir activer votre compte.`);

    // A lot still open to applications, chosen now because other journeys recruit on demo lots.
    const lotsResponse = await page.request.get(`/api/mission-batches/available-for-application?technicianId=${account.technicianId}&limit=100`);
    const lots = (await lotsResponse.json()) as Lot[];
    const lot = lots.find((l) => !l.isAssigned && !l.hasApplied);
    expect(lot, 'un lot ouvert aux candidatures').toBeDefined();

    const matching = await page.request.get(`/api/mission-batches/available-for-application?search=${encodeURIComponent(lot!.title)}`);
    const matchCount = Number(matching.headers()['x-total-count']);
    await page.getByLabel('Recherche').fill(lot!.title);
    await expect(page.getByText(new RegExp(`^${matchCount} lots? disponibles?$`))).toBeVisible();
    const card = lotCard(page, lot!.title);
    await expect(card.getByRole('button', { name: 'Formation incomplète' })).toBeDisabled();
    await expect(card.getByText('Consultez toutes les ressources de formation pour postuler')).toBeVisible();
    await shot(page, 'technician-find-missions-untrained-phone');

    await banner(page).getByRole('link', { name: 'Me former' }).click();
    await expect(page.getByRole('heading', { name: 'Me former', level: 1 })).toBeVisible();
    await expect(page.getByText(`0 / ${total} modules consultés`)).toBeVisible();
    await shot(page, 'technician-training-start-phone');

    const openLinks = page.getByRole('link', { name: /^Ouvrir le module : / });
    for (let read = 1; read <= total; read += 1) {
      await openLinks.first().click();
      await expect(page.getByText(`${read} / ${total} modules consultés`)).toBeVisible();
      if (read < total) {
        await expect(banner(page)).toContainText(`Il vous reste ${total - read} modules de formations sur ${total}`);
      }
      if (read === 2) await shot(page, 'technician-training-progress-phone');
    }
    await expect(banner(page)).toHaveCount(0);
    await expect(page.getByText('Formation complétée : vous pouvez postuler aux lots de missions.')).toBeVisible();
    await expect(page.getByText(/^Consulté le /)).toHaveCount(total);
    expect((await counts(page, account.technicianId)).formation).toEqual({ total, read: total });
    await shot(page, 'technician-training-done-phone');

    await page.getByRole('link', { name: /Trouver des missions/ }).click();
    await page.getByLabel('Recherche').fill(lot!.title);
    await card.getByRole('button', { name: lot!.title }).click();
    await expect(card.getByText('Date limite', { exact: true })).toBeVisible();
    await expect(card.getByText('Candidats', { exact: true })).toBeVisible();
    await expect(card.getByText('HT & 100% de complétion', { exact: true })).toBeVisible();
    await shot(page, 'technician-find-missions-expanded-phone');

    // At phone size the tabs are in the bottom navigation, whose badge shows only a count above zero (issue 17).
    const applicationsLink = page.getByRole('navigation', { name: 'Onglets' }).getByRole('link', { name: 'Candidatures & Missions' });
    await expect(applicationsLink).not.toContainText(/\d/);
    await card.getByRole('button', { name: 'Postuler' }).click();
    await expect(page.getByText('Candidature envoyée avec succès', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Vous avez postulé' })).toBeDisabled();
    await expect(applicationsLink).toContainText('1');
    await shot(page, 'technician-find-missions-applied-phone');

    await applicationsLink.click();
    await expect(page.getByRole('heading', { name: 'Candidatures & Missions', level: 1 })).toBeVisible();
    const pending = page.getByRole('radio', { name: /En attente/ });
    await expect(pending).toHaveAttribute('aria-checked', 'true');
    const application = page.getByRole('list', { name: 'Candidatures : En attente' }).getByRole('listitem').filter({ hasText: lot!.title });
    await expect(application.getByText('En attente', { exact: true })).toBeVisible();
    await application.getByRole('button', { name: new RegExp(lot!.title) }).click();
    await expect(application.getByText('Date de candidature', { exact: true })).toBeVisible();
    await expect(application.getByText('Candidats', { exact: true })).toBeVisible();
    await shot(page, 'technician-applications-pending-phone');

    for (const status of ['Recruté', 'Refusé', 'Terminé']) {
      await page.getByRole('radio', { name: new RegExp(status) }).click();
      await expect(page.getByText(`Aucune candidature avec le statut "${status}"`)).toBeVisible();
    }
    await shot(page, 'technician-applications-empty-phone');
    await pending.click();
    await expect(application).toBeVisible();

    // The server keeps the rule too: a second application to the same lot is refused.
    const again = await page.request.post('/api/applications/batch', {
      headers: { Origin: new URL(baseURL!).origin },
      data: { batchId: lot!.id, technicianId: account.technicianId, status: 'En attente' },
    });
    expect(again.status()).toBe(409);
  });

  test('a pending account can browse lots but sees why it cannot apply', async ({ page, baseURL }) => {
    const account = await registerTechnician(baseURL!, { approve: false });
    await loginAs(page, account.email, account.password);
    await expect(page.getByText(/Votre inscription est en cours de modération/)).toBeVisible();
    const firstCard = page.getByRole('list', { name: 'Lots de missions' }).getByRole('listitem').first();
    await expect(firstCard.getByRole('button', { name: 'Compte en attente de validation' })).toBeDisabled();
    await expect(firstCard.getByText('Vous pourrez postuler dès que votre compte sera validé.', { exact: true })).toBeVisible();
    await shot(page, 'technician-find-missions-pending-phone');
  });

  test('Trouver des missions: department, tag and text filters match the server, titles expand, Terminé shows revenue', async ({ page }) => {
    await loginAs(page, TECHNICIAN.email, DEMO_PASSWORD);
    await expect(page.getByRole('heading', { name: 'Trouver des missions', level: 1 })).toBeVisible();
    const list = page.getByRole('list', { name: 'Lots de missions' });
    const titlesFor = async (query: string) => {
      const response = await page.request.get(`/api/mission-batches/available-for-application?limit=20&${query}`);
      return ((await response.json()) as Lot[]).map((l) => l.title);
    };
    const expectTitles = async (expected: string[]) => {
      await expect(list.getByRole('listitem')).toHaveCount(expected.length);
      for (const title of expected) await expect(list.getByRole('button', { name: title })).toBeVisible();
    };

    await expectTitles(await titlesFor(''));
    await shot(page, 'technician-find-missions-phone');

    const filters = (await (await page.request.get('/api/mission-batches/available-filters')).json()) as { departments: string[]; tags: string[] };
    const department = filters.departments[0]!;
    const departmentSelect = page.getByLabel('Département');
    await departmentSelect.selectOption(department);
    await expect(departmentSelect.locator('option:checked')).toHaveText(new RegExp(`\\(${department}\\)$`));
    await expectTitles(await titlesFor(`department=${department}`));

    await departmentSelect.selectOption('');
    const tag = filters.tags[0]!;
    await page.getByLabel('Tag').selectOption(tag);
    await expectTitles(await titlesFor(`tag=${encodeURIComponent(tag)}`));
    await page.getByLabel('Tag').selectOption('');

    const someTitle = (await titlesFor(''))[0]!;
    const word = someTitle.split(/\s+/)[0]!;
    await page.getByLabel('Recherche').fill(word);
    await expectTitles(await titlesFor(`search=${encodeURIComponent(word)}`));

    const card = list.getByRole('listitem').filter({ hasText: someTitle });
    const toggle = card.getByRole('button', { name: someTitle });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(card.getByText('Défibrillateurs', { exact: true })).toBeVisible();
    await expect(card.getByText('Département principal', { exact: true })).toBeVisible();
    await expect(card.getByText('Modèles requis', { exact: true })).toBeVisible();
    await shot(page, 'technician-find-missions-filtered-phone');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await page.getByLabel('Recherche').fill('zzz-aucun-lot-ne-porte-ce-nom');
    await expect(page.getByText('Aucun lot de missions trouvé pour ces critères')).toBeVisible();
    await page.getByRole('button', { name: 'Effacer les filtres' }).click();
    await expect(page.getByLabel('Recherche')).toHaveValue('');
    await expectTitles(await titlesFor(''));

    // Candidatures & Missions of the demo technician: Terminé shows the final revenue and the treated devices.
    await page.goto('/technician/dashboard?tab=applications&status=Termin%C3%A9');
    const finished = (await (await page.request.get('/api/applications?status=Termin%C3%A9')).json()) as { lot: { title: string } }[];
    if (finished.length > 0) {
      const item = page.getByRole('list', { name: 'Candidatures : Terminé' }).getByRole('listitem').filter({ hasText: finished[0]!.lot.title });
      await item.getByRole('button', { name: new RegExp(finished[0]!.lot.title) }).click();
      await expect(item.getByText('Revenu final', { exact: true })).toBeVisible();
      await expect(item.getByText('Défibrillateurs traités', { exact: true })).toBeVisible();
    } else {
      await expect(page.getByText('Aucune candidature avec le statut "Terminé"')).toBeVisible();
    }
    await shot(page, 'technician-applications-finished-phone');

    await page.goto('/technician/dashboard?tab=missions');
    await expect(page.getByRole('radio', { name: /Recruté/ })).toHaveAttribute('aria-checked', 'true');
    await shot(page, 'technician-missions-recruited-phone');
  });
});
