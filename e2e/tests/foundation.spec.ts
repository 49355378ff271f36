import { expect, test } from '@playwright/test';
import { ADMIN, PHONE, TECHNICIAN } from '../fixtures/accounts';
import { snap } from '../fixtures/screens';

test.describe('foundation journeys', () => {
  test('landing → technician login → tabs via ?tab= → logout', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Participez à la chaîne de survie avec nous' })).toBeVisible();
    await expect(page.getByText('Vous êtes?')).toBeVisible();
    await expect(page).toHaveTitle(/Maillon/);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
    await snap(page, 'landing-phone');

    await page.getByRole('link', { name: /Technicien/ }).click();
    await expect(page).toHaveURL(/\/technician\/login$/);
    await page.getByLabel('Email').fill(TECHNICIAN.email);
    await page.getByLabel('Mot de passe').fill(TECHNICIAN.password);
    await snap(page, 'technician-login-phone');
    await page.getByRole('button', { name: 'Se connecter' }).click();

    await expect(page).toHaveURL(/\/technician\/dashboard/);
    await expect(page.getByRole('heading', { name: 'Trouver des missions' })).toBeVisible();
    await snap(page, 'technician-dashboard-phone');

    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(200);
    expect((await me.json()).user.email).toBe(TECHNICIAN.email);

    for (const [tab, title] of [
      ['formation', 'Me former'],
      ['applications', 'Candidatures & Missions'],
      ['revenue', 'Revenus & Virements'],
      ['packages', 'Mes réceptions colis'],
      ['profile', 'Mon compte'],
    ] as const) {
      await page.goto(`/technician/dashboard?tab=${tab}`);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await expect(page.getByRole('link', { name: new RegExp(title) }).first()).toHaveAttribute('aria-current', 'page');
    }
    await page.goto('/technician/dashboard?tab=inconnu');
    await expect(page.getByText(/Contenu en développement/)).toBeVisible();

    await page.getByRole('button', { name: 'Déconnexion' }).first().click();
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    await page.goto('/technician/dashboard');
    await expect(page).toHaveURL(/\/technician\/login$/);
  });

  test('wrong password shows the login error toast', async ({ page }) => {
    await page.goto('/technician/login');
    await page.getByLabel('Email').fill(TECHNICIAN.email);
    await page.getByLabel('Mot de passe').fill('pas-le-bon');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByText('Erreur de connexion', { exact: true })).toBeVisible();
    await expect(page.getByText('Email ou mot de passe incorrect', { exact: true })).toBeVisible();
  });

  test('inline field errors on an empty login form', async ({ page }) => {
    await page.goto('/technician/login');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByText('Veuillez entrer votre adresse email')).toBeVisible();
    await expect(page.getByText('Veuillez entrer votre mot de passe')).toBeVisible();
  });

  test('admin login (email prefilled) → dashboard with counts → logout', async ({ page }) => {
    await page.goto('/admin/login');
    await expect(page.getByRole('heading', { name: 'Administrateur' })).toBeVisible();
    await expect(page.getByText("Connectez-vous en tant qu'administrateur.")).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(ADMIN.email);
    await page.getByLabel('Mot de passe').fill(ADMIN.password);
    await snap(page, 'admin-login-desktop');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard/);
    await expect(page.getByText('Systèmes Opérationnels')).toBeVisible();
    await expect(page.getByRole('link', { name: /Suggestions/ })).toBeVisible();
    await page.goto('/admin/dashboard?tab=settings');
    await expect(page.getByRole('link', { name: /Réglages/ })).toHaveAttribute('aria-current', 'page');
    await page.goto('/admin/dashboard?tab=nimporte');
    await expect(page.getByText('Contenu en développement')).toBeVisible();
    await snap(page, 'admin-dashboard-desktop');
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('admin area on a small screen shows the desktop-only message', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/admin/dashboard');
    await expect(
      page.getByText("Administration non disponible - L'administration est disponible exclusivement depuis un ordinateur"),
    ).toBeVisible();
    await snap(page, 'admin-small-width');
  });

  test('a technician cannot open the admin dashboard', async ({ page }) => {
    await page.goto('/technician/login');
    await page.getByLabel('Email').fill(TECHNICIAN.email);
    await page.getByLabel('Mot de passe').fill(TECHNICIAN.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/technician\/dashboard/);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect((await page.request.get('/api/admin/counts')).status()).toBe(403);
  });

  test('unknown paths show the English 404 page', async ({ page }) => {
    await page.goto('/nulle-part/ici');
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText(/Developer hint/)).toBeVisible();
    const api = await page.request.get('/api/nulle-part');
    expect(api.status()).toBe(404);
    expect(await api.json()).toEqual({ message: 'Ressource introuvable', code: 'NOT_FOUND', requestId: api.headers()['x-request-id'] });
  });
});
