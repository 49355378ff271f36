import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, PHONE, TECHNICIAN } from '../fixtures/accounts';
import { snap, SCREENS_DIR } from '../fixtures/screens';

/**
 * Issue 6 journey: the demo technician Julien Moreau submits the invoice of his finished lot "Villeurbanne - écoles"
 * (480 €) from his phone, the administrator downloads it and marks it paid on a desktop, then Julien sees the transfer
 * Effectué and opens the fiscal receipt. Only this spec touches Julien's invoices.
 */

const JULIEN = { email: 'julien.moreau@exemple.fr', password: TECHNICIAN.password };
const LOT_TITLE = 'Villeurbanne - écoles';
const DESKTOP = { width: 1440, height: 900 };

/** A small valid PDF (header, one page with text, xref table, trailer, %%EOF), generated for the test. */
function makePdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 50 120 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const euros = (value: number) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(value).replace(/[\u202f\u00a0]/g, ' ');

async function loginTechnician(page: Page) {
  await page.goto('/technician/login');
  await page.getByLabel('Email').fill(JULIEN.email);
  await page.getByLabel('Mot de passe').fill(JULIEN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/technician\/dashboard/);
}

async function summary(page: Page, technicianId: string) {
  const response = await page.request.get(`/api/technician/${technicianId}/revenue-summary`);
  expect(response.status()).toBe(200);
  return (await response.json()) as { activeMissionGains: number; pendingTransfers: number; paymentHistory: number };
}

test.describe('money: invoice submission, payment and fiscal receipt', () => {
  test('Julien submits his invoice (phone) → the admin downloads it and marks it paid → Julien opens the fiscal receipt', async ({ page, browser }) => {
    const reference = `FAC-E2E-${Date.now()}`;
    const pdf = makePdf(`Facture ${reference}`);

    // --- Technician, phone -------------------------------------------------------------------------------------------
    await page.setViewportSize(PHONE);
    await loginTechnician(page);
    const me = (await (await page.request.get('/api/auth/me')).json()) as { technician: { id: string } };
    const technicianId = me.technician.id;
    const before = await summary(page, technicianId);

    await page.goto('/technician/dashboard?tab=revenue');
    await expect(page.getByRole('heading', { name: 'Revenus & Virements', level: 1 })).toBeVisible();
    await expect(page.getByRole('note').filter({ hasText: 'hors taxes (HT), sauf les virements' })).toBeVisible();
    for (const label of ['Gains validés missions actives', 'Gains validés, virement en attente', 'Historique du total de vos paiements']) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByRole('group', { name: 'Gains validés missions actives' })).toContainText(euros(before.activeMissionGains));

    const invoiceCard = page.getByRole('list', { name: 'Mes revenus' }).getByRole('listitem').filter({ hasText: LOT_TITLE });
    await expect(invoiceCard).toContainText('Facture à soumettre');
    await expect(invoiceCard).toContainText('480,00 €');
    await expect(invoiceCard).toContainText('4/5');
    await expect(invoiceCard).toContainText('Néant');
    await snap(page, 'money-revenue-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await invoiceCard.getByRole('button', { name: 'Envoyer facture' }).click();
    const dialog = page.getByRole('dialog', { name: 'Envoyer facture' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Envoyer la facture' }).click();
    await expect(dialog.getByText('Veuillez entrer une référence')).toBeVisible();
    await expect(dialog.getByText('Veuillez sélectionner un fichier PDF')).toBeVisible();
    await expect(dialog.getByText('Veuillez certifier le montant de la facture')).toBeVisible();

    await dialog.getByLabel('Facture (PDF)').setInputFiles({ name: 'facture.pdf', mimeType: 'application/pdf', buffer: Buffer.from('Ceci n’est pas un PDF') });
    await expect(dialog.getByText('Seuls les fichiers PDF sont autorisés')).toBeVisible();
    await snap(page, 'money-submit-errors-phone');

    await dialog.getByLabel('Référence de la facture').fill(reference);
    await dialog.getByLabel('Facture (PDF)').setInputFiles({ name: 'facture-villeurbanne.pdf', mimeType: 'application/pdf', buffer: pdf });
    await expect(dialog.getByText('Seuls les fichiers PDF sont autorisés')).toBeHidden();
    await dialog.getByLabel(/Je certifie que le montant de ma facture est de 480,00 €/).check();
    await snap(page, 'money-submit-dialog-phone');
    await dialog.getByRole('button', { name: 'Envoyer la facture' }).click();

    await expect(page.getByText('Facture soumise avec succès', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(invoiceCard).toContainText('Facture envoyée');
    await expect(invoiceCard).toContainText(reference);
    const transferCard = page.getByRole('list', { name: 'Mes virements' }).getByRole('listitem').filter({ hasText: reference });
    await expect(transferCard).toContainText('Enregistré');
    await expect(transferCard).toContainText('En attente');
    await expect(transferCard).toContainText('•••• 0101');
    const afterSubmit = await summary(page, technicianId);
    expect(afterSubmit.activeMissionGains).toBeCloseTo(before.activeMissionGains - 480, 2);
    expect(afterSubmit.pendingTransfers).toBeCloseTo(before.pendingTransfers + 480, 2);
    await expect(page.getByRole('group', { name: 'Gains validés, virement en attente' })).toContainText(euros(afterSubmit.pendingTransfers));
    await expect(page.getByRole('group', { name: 'Gains validés missions actives' })).toContainText(euros(afterSubmit.activeMissionGains));
    await snap(page, 'money-submitted-phone');

    // --- Administrator, desktop ---------------------------------------------------------------------------------------
    const adminContext = await browser.newContext({ viewport: DESKTOP, locale: 'fr-FR', timezoneId: 'Europe/Paris', acceptDownloads: true });
    const admin = await adminContext.newPage();
    await admin.goto('/admin/login');
    await admin.getByLabel('Mot de passe').fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Se connecter' }).click();
    await expect(admin).toHaveURL(/\/admin\/dashboard/);
    await admin.goto('/admin/dashboard?tab=invoices');
    await expect(admin.getByRole('heading', { name: 'Factures & virements', level: 1 })).toBeVisible();
    await expect(admin.getByRole('list', { name: 'Factures' })).toBeVisible();
    await snap(admin, 'money-admin-all-desktop');
    // The technician filter searches as you type: « Nom Prénom » finds « Prénom Nom ».
    const technicianFilter = admin.getByLabel('Technicien');
    await technicianFilter.fill('Moreau');
    await expect(admin.getByRole('option', { name: 'Julien Moreau' })).toBeVisible();
    await technicianFilter.fill('Moreau Julien');
    const technicianOptions = admin.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
    await expect(technicianOptions).toHaveText(['Julien Moreau']);
    await technicianFilter.press('ArrowDown');
    await expect(technicianFilter).toHaveAttribute('aria-activedescendant', /.+/);
    await snap(admin, 'money-admin-technician-picker-desktop');
    await technicianOptions.filter({ hasText: 'Julien Moreau' }).click();
    await expect(technicianFilter).toHaveValue('Julien Moreau');
    await expect(admin.getByRole('listbox', { name: 'Suggestions' })).toBeHidden();
    await admin.getByLabel('Recherche').fill('Villeurbanne');
    await admin.getByRole('radio', { name: /Facture envoyée/ }).click();
    const adminCard = admin.getByRole('listitem', { name: `Facture ${reference} – Julien Moreau` });
    await expect(adminCard).toBeVisible();
    await expect(adminCard).toContainText('Facture envoyée');
    await expect(adminCard).toContainText(LOT_TITLE);
    await expect(adminCard).toContainText('600,00 €');
    await expect(adminCard).toContainText('480,00 €');
    await expect(adminCard).toContainText('4/5 (80,00 %)');
    await snap(admin, 'money-admin-invoices-desktop');

    const [download] = await Promise.all([admin.waitForEvent('download'), adminCard.getByRole('link', { name: 'Télécharger la facture' }).click()]);
    expect(download.suggestedFilename()).toBe('facture-villeurbanne.pdf');
    const downloaded = fs.readFileSync(await download.path());
    expect(Buffer.compare(downloaded, pdf)).toBe(0);

    await adminCard.getByRole('button', { name: 'Marquer Payée' }).click();
    const confirm = admin.getByRole('alertdialog', { name: 'Marquer la facture comme payée ?' });
    await expect(confirm).toContainText('480,00 €');
    await confirm.getByRole('button', { name: 'Marquer Payée' }).click();
    await expect(admin.getByText('Facture marquée comme payée', { exact: true })).toBeVisible();
    await admin.getByRole('radio', { name: /Terminé/ }).click();
    await expect(adminCard).toContainText('Terminé');
    await expect(adminCard).toContainText('Effectué');
    await expect(adminCard.getByRole('link', { name: 'Reçu fiscal' })).toBeVisible();
    await snap(admin, 'money-admin-paid-desktop');
    await adminContext.close();

    // --- Technician again: transfer Effectué, totals, fiscal receipt --------------------------------------------------
    await page.reload();
    await expect(transferCard).toContainText('Effectué');
    await expect(transferCard).toContainText(/VIR-\d{8}-[0-9A-F]{6}/);
    const transferRef = (await transferCard.textContent())!.match(/VIR-\d{8}-[0-9A-F]{6}/)![0];
    const afterPaid = await summary(page, technicianId);
    expect(afterPaid.pendingTransfers).toBeCloseTo(before.pendingTransfers, 2);
    expect(afterPaid.paymentHistory).toBeCloseTo(before.paymentHistory + 480, 2);
    await expect(page.getByRole('group', { name: 'Historique du total de vos paiements' })).toContainText(euros(afterPaid.paymentHistory));

    const receiptLink = transferCard.getByRole('link', { name: 'Reçu fiscal' });
    const href = await receiptLink.getAttribute('href');
    expect(href).toMatch(/^\/api\/invoices\/[0-9a-f-]{36}\/fiscal-receipt$/);
    const [popup, receiptResponse] = await Promise.all([
      page.waitForEvent('popup'),
      page.context().waitForEvent('response', (response) => response.url().endsWith(href!)),
      receiptLink.click(),
    ]);
    expect(receiptResponse.status()).toBe(200);
    expect(receiptResponse.headers()['content-type']).toBe('application/pdf');
    expect(receiptResponse.headers()['x-content-type-options']).toBe('nosniff');
    await expect(page.getByText('Reçu fiscal généré', { exact: true })).toBeVisible();
    await expect(page.getByText(`Référence ${transferRef}`, { exact: true })).toBeVisible();
    await snap(page, 'money-paid-phone');
    await popup.close();

    const receipt = await page.request.get(href!);
    expect(receipt.status()).toBe(200);
    const bytes = await receipt.body();
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-8).toString('latin1')).toContain('%%EOF');
    fs.mkdirSync(SCREENS_DIR, { recursive: true });
    fs.writeFileSync(path.join(SCREENS_DIR, 'money-fiscal-receipt.pdf'), bytes);

    // Another technician cannot read it.
    const other = await page.context().browser()!.newContext();
    const otherLogin = await other.request.post(`${new URL(page.url()).origin}/api/auth/login`, {
      data: TECHNICIAN,
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(otherLogin.ok()).toBe(true);
    expect((await other.request.get(`${new URL(page.url()).origin}${href}`)).status()).toBe(404);
    await other.close();
  });
});
