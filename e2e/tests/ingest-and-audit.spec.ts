import { expect, test, request as playwrightRequest } from '@playwright/test';
import { ADMIN, INGEST_API_KEY } from '../fixtures/accounts';
import { snap } from '../fixtures/screens';

/**
 * The visit-suggestion tool feeds Suggestions through its API key, and every sensitive admin action lands in the
 * audit trail shown in Réglages.
 */
const stamp = `${Date.now().toString(36)}${Math.round(Math.random() * 1e4)}`;

test('ingested visits appear in Suggestions; a refused key writes nothing', async ({ page, baseURL }) => {
  const tool = await playwrightRequest.newContext({ baseURL });
  const visits = [1, 2, 3].map((n) => ({
    serialNumber: `SN-INGEST-${stamp}-${n}`,
    clientName: `Piscine Ingestion ${stamp} ${n}`,
    defibrillatorModel: 'Zoll - AED Plus',
    visitType: 'Maintenance préventive',
    department: '44',
    address: `${n} quai de la Fosse, 44000 Nantes`,
    completionLink: `https://formulaires.maillon.fr/completion?serie=SN-INGEST-${stamp}-${n}`,
  }));
  const refused = await tool.post('/api/jobs/ingest', { data: visits, headers: { Authorization: 'Bearer mauvaise-cle-0123456789' } });
  expect(refused.status()).toBe(401);
  const accepted = await tool.post('/api/jobs/ingest', { data: visits, headers: { Authorization: `Bearer ${INGEST_API_KEY}` } });
  expect(accepted.status()).toBe(200);
  expect(await accepted.json()).toMatchObject({ created: 3 });
  // Sent again while pending: nothing duplicated.
  const again = await tool.post('/api/jobs/ingest', { data: visits, headers: { Authorization: `Bearer ${INGEST_API_KEY}` } });
  expect(await again.json()).toMatchObject({ created: 0, duplicates: 3 });
  await tool.dispose();

  await page.goto('/admin/login');
  await page.getByLabel('Mot de passe').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  await page.goto('/admin/dashboard?tab=missions-draft');
  for (const n of [1, 2, 3]) await expect(page.getByText(`Piscine Ingestion ${stamp} ${n}`).first()).toBeVisible();
  await snap(page, 'admin-ingested-suggestions-desktop');
});

test('the audit trail in Réglages shows who did a sensitive action', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const admin = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  expect((await admin.post('/api/auth/login', { data: ADMIN })).status()).toBe(200);
  const created = await admin.post('/api/mission-batches', { data: { title: `Lot audit ${stamp}`, price: 100, departments: ['75'], tags: [] } });
  expect(created.status()).toBe(201);
  const lot = (await created.json()) as { id: string };
  expect((await admin.delete(`/api/mission-batches/${lot.id}`)).status()).toBe(200);
  await admin.dispose();

  await page.goto('/admin/login');
  await page.getByLabel('Mot de passe').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  await page.goto('/admin/dashboard?tab=settings');
  const journal = page.getByRole('region', { name: "Journal d'audit" });
  await expect(journal).toBeVisible();
  const row = journal.getByRole('row').filter({ hasText: lot.id }).filter({ hasText: 'batch.delete' });
  await expect(row).toBeVisible();
  await expect(row).toContainText(ADMIN.email);
  await journal.scrollIntoViewIfNeeded();
  await snap(page, 'admin-audit-trail-desktop');
});
