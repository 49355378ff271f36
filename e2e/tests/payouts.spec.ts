import fs from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, PHONE } from '../fixtures/accounts';
import { facturXInvoice } from '../fixtures/factur-x';
import { snap, SCREENS_DIR } from '../fixtures/screens';

/**
 * Issue 21 journey: a technician sends a Factur-X invoice from its phone (the reference is read from the file), the
 * administrator sees the invoice data, puts the transfer in a SEPA batch, downloads the bank file and marks the batch
 * paid; both download the yearly statement, the admin the accounting export. Everything is made here: a fresh
 * technician, its lot, its invoice.
 */

const DESKTOP = { width: 1440, height: 900 };
const CHARITY_SIRET = '73282932000074';
const SIRET = '44306184100047';
const IBAN = 'FR7630006000011234568630105';

function day(offset = 0) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + offset * 86_400_000));
}

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
  expect((await api.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
  return api;
}

/** A registered, approved, trained technician (SIRET and IBAN on file) who finished a lot of 2 devices priced 650 €. */
async function technicianWithInvoice(baseURL: string) {
  const admin = await adminApi(baseURL);
  const tech = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
  const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
  const email = `e2e-payout-${stamp}@maillon.test`;
  const password = 'Virement-E2E-2026!';
  const registered = await tech.post('/api/technicians/register', {
    multipart: {
      firstName: 'Émilie',
      lastName: `Façade-Œuvre ${stamp.slice(-4)}`,
      email,
      password,
      companyName: 'Façade Défibrillateurs',
      siret: SIRET,
      iban: IBAN,
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
  for (const resource of (await (await tech.get('/api/learning-resources')).json()) as { id: string }[]) {
    expect((await tech.post(`/api/learning-resources/${resource.id}/view`, { data: { technicianId } })).ok()).toBe(true);
  }
  const title = `Virements e2e ${stamp}`;
  const deadline = day(20);
  const lot = await admin.post('/api/mission-batches', { data: { title, description: 'Lot de la recette virements', price: 650, departments: ['75'], tags: ['Maintenance'], deadline } });
  expect(lot.status(), await lot.text()).toBeLessThan(300);
  const batchId = ((await lot.json()) as { id: string }).id;
  const missionIds: string[] = [];
  for (const k of [0, 1]) {
    const mission = await admin.post('/api/missions', {
      data: {
        title: `Maintenance - Site ${k} ${stamp}`,
        description: 'Maintenance préventive',
        location: '12 place Léon Blum, 75011 Paris',
        department: '75',
        budget: 150,
        deadline,
        status: 'active',
        batchId,
        serialNumber: `SN-PAY-${stamp}-${k}`,
        clientName: `Site ${k}`,
        defibrillatorModel: 'ZOLL - AED Plus',
        visitType: 'Maintenance préventive',
        completionLink: `https://formulaires.maillon.fr/completion?serie=SN-PAY-${stamp}-${k}`,
        postalCode: '75011',
        city: 'Paris',
      },
    });
    expect(mission.status(), await mission.text()).toBeLessThan(300);
    missionIds.push(((await mission.json()) as { id: string }).id);
  }
  const visible = await admin.put(`/api/mission-batches/${batchId}`, { data: { title, description: 'Lot de la recette virements', price: 650, departments: ['75'], tags: ['Maintenance'], deadline, visibility: 'visible' } });
  expect(visible.status(), await visible.text()).toBe(200);
  const applied = await tech.post('/api/applications/batch', { data: { batchId, technicianId, status: 'En attente' } });
  const applicationId = ((await applied.json()) as { id: string }).id;
  expect((await admin.patch(`/api/applications/${applicationId}/status`, { data: { status: 'Recruté' } })).status()).toBe(200);
  for (const missionId of missionIds) {
    expect((await tech.patch(`/api/technician-mission-data/${missionId}/${technicianId}`, { data: { isCompleted: true } })).ok()).toBe(true);
  }
  const finished = await tech.patch(`/api/applications/${applicationId}/complete`, { data: {} });
  expect(finished.status(), await finished.text()).toBe(200);
  await tech.dispose();
  await admin.dispose();
  return { email, password, technicianId, title, name: `Émilie Façade-Œuvre ${stamp.slice(-4)}` };
}

async function loginTechnician(page: Page, email: string, password: string) {
  await page.setViewportSize(PHONE);
  await page.goto('/technician/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/technician\/dashboard/);
}

test.describe('money: Factur-X, SEPA batch and statements', () => {
  test('a Factur-X invoice is read on upload → the admin pays it with a SEPA batch → both download the statements', async ({ page, browser, baseURL }) => {
    const own = await technicianWithInvoice(baseURL!);
    const number = `FX-${Date.now()}`;
    const facturX = await facturXInvoice({ number, sellerName: 'Façade Défibrillateurs', sellerSiret: SIRET, buyerSiret: CHARITY_SIRET, net: 650 });

    // --- Technician, phone: the reference comes from the Factur-X file -------------------------------------------------
    await loginTechnician(page, own.email, own.password);
    await page.goto('/technician/dashboard?tab=revenue');
    await expect(page.getByRole('heading', { name: 'Revenus & Virements', level: 1 })).toBeVisible();
    await expect(page.getByText('Aucun virement reçu pour l’instant : votre premier relevé apparaîtra ici.')).toBeVisible();
    const invoiceCard = page.getByRole('list', { name: 'Mes revenus' }).getByRole('listitem').filter({ hasText: own.title });
    await expect(invoiceCard).toContainText('Facture à soumettre');
    await invoiceCard.getByRole('button', { name: 'Envoyer facture' }).click();
    const dialog = page.getByRole('dialog', { name: 'Envoyer facture' });
    await expect(dialog.getByLabel('Référence de la facture')).toHaveValue('');

    // A wrong amount is refused at once, with what differs.
    const wrong = await facturXInvoice({ number: `${number}-B`, sellerName: 'Façade Défibrillateurs', sellerSiret: SIRET, buyerSiret: CHARITY_SIRET, net: 700 });
    await dialog.getByLabel('Facture (PDF)').setInputFiles({ name: 'facture-700.pdf', mimeType: 'application/pdf', buffer: wrong });
    await expect(dialog.getByText('Montant de la facture : 700,00 € ; montant validé : 650,00 €').first()).toBeVisible();

    await dialog.getByLabel('Facture (PDF)').setInputFiles({ name: 'facture-factur-x.pdf', mimeType: 'application/pdf', buffer: facturX });
    const reading = dialog.getByRole('status', { name: 'Lecture de la facture' });
    await expect(reading).toContainText(`Facture électronique Factur-X (profil EN 16931) n° ${number} du 20/11/2026`);
    await expect(reading).toContainText('Montant à payer 650,00 €, égal au montant validé');
    await expect(reading).toContainText('Vendeur : SIRET 443 061 841 00047, celui de votre profil');
    await expect(reading).toContainText('Acheteur : l’association (SIRET 732 829 320 00074)');
    await expect(dialog.getByLabel('Référence de la facture')).toHaveValue(number);
    await dialog.getByLabel(/Je certifie que le montant de ma facture est de 650,00 €/).check();
    await snap(page, 'payouts-facturx-dialog-phone');
    await dialog.getByRole('button', { name: 'Envoyer la facture' }).click();
    await expect(page.getByText('Facture soumise avec succès', { exact: true })).toBeVisible();
    await expect(invoiceCard).toContainText('Facture envoyée');
    await expect(invoiceCard).toContainText(number);

    // --- Admin, desktop: data beside the file, SEPA batch, bank file, paid ----------------------------------------------
    const adminContext = await browser.newContext({ viewport: DESKTOP, locale: 'fr-FR', timezoneId: 'Europe/Paris', acceptDownloads: true });
    const admin = await adminContext.newPage();
    await admin.goto('/admin/login');
    await admin.getByLabel('Mot de passe').fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Se connecter' }).click();
    await expect(admin).toHaveURL(/\/admin\/dashboard/);
    await admin.goto('/admin/dashboard?tab=invoices');
    await admin.getByLabel('Recherche').fill(number);
    const card = admin.getByRole('listitem', { name: `Facture ${number} – ${own.name}` });
    await expect(card).toBeVisible();
    const eInvoice = card.getByRole('region', { name: 'Facture électronique' });
    await expect(eInvoice).toContainText('Factur-X · EN 16931');
    await expect(eInvoice).toContainText(number);
    await expect(eInvoice).toContainText('SIRET 443 061 841 00047');
    await expect(eInvoice).toContainText('SIRET 732 829 320 00074');
    await expect(eInvoice).toContainText('650,00 €');
    await snap(admin, 'payouts-admin-facturx-desktop');

    await admin.getByRole('radio', { name: 'Virements SEPA' }).click();
    await expect(admin).toHaveURL(/view=payouts/);
    await expect(admin.getByRole('heading', { name: 'Virements à payer' })).toBeVisible();
    await expect(admin.getByText('Compte débité : Association Maillon pour la chaîne de survie · •••• 0143 · BIC BNPAFRPPXXX')).toBeVisible();
    await admin.getByRole('checkbox', { name: `Sélectionner ${number} (${own.name})` }).check();
    await expect(admin.getByText(/^1 virement sélectionné · 650,00 €$/)).toBeVisible();
    await snap(admin, 'payouts-admin-candidates-desktop');
    await admin.getByRole('button', { name: 'Créer le lot SEPA' }).click();
    const confirmCreate = admin.getByRole('alertdialog', { name: 'Créer le lot de virements ?' });
    await expect(confirmCreate).toContainText('1 virement pour 650,00 €');
    await confirmCreate.getByRole('button', { name: 'Créer le lot' }).click();
    await expect(admin.getByText(/^Lot SEPA-\d{8}-[0-9A-F]{6} créé$/)).toBeVisible();
    const batch = admin.getByRole('list', { name: 'Lots de virements' }).getByRole('listitem').first();
    await expect(batch).toContainText('Préparé');
    const reference = (await batch.getByRole('heading', { level: 3 }).textContent())!.trim();
    expect(reference).toMatch(/^SEPA-\d{8}-[0-9A-F]{6}$/);
    const lines = batch.getByRole('table', { name: `Virements du lot ${reference}` });
    await expect(lines).toContainText('Emilie Facade-OEuvre');
    await expect(lines).toContainText('•••• 0105');
    await expect(lines).toContainText(number);

    const [download] = await Promise.all([admin.waitForEvent('download'), batch.getByRole('link', { name: 'Télécharger le fichier SEPA (XML)' }).click()]);
    expect(download.suggestedFilename()).toBe(`${reference}.xml`);
    const xml = fs.readFileSync(await download.path(), 'utf8');
    fs.mkdirSync(SCREENS_DIR, { recursive: true });
    fs.writeFileSync(path.join(SCREENS_DIR, 'payouts-sepa.xml'), xml);
    expect(xml).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"');
    expect(xml).toContain(`<MsgId>${reference}</MsgId>`);
    expect(xml).toContain('<NbOfTxs>1</NbOfTxs>');
    expect(xml).toContain('<CtrlSum>650.00</CtrlSum>');
    expect(xml).toContain('<InstdAmt Ccy="EUR">650.00</InstdAmt>');
    expect(xml).toContain(`<IBAN>${IBAN}</IBAN>`);
    expect(xml).toContain(`<Ustrd>${number}</Ustrd>`);
    await snap(admin, 'payouts-admin-batch-desktop');

    await batch.getByRole('button', { name: 'Marquer le lot payé' }).click();
    const confirmPay = admin.getByRole('alertdialog', { name: 'Marquer le lot comme payé ?' });
    await expect(confirmPay).toContainText('1 virement (650,00 €)');
    await confirmPay.getByRole('button', { name: 'Marquer le lot payé' }).click();
    await expect(admin.getByText(`Lot ${reference} marqué payé`, { exact: true })).toBeVisible();
    await expect(batch.getByText('Payé', { exact: true }).first()).toBeVisible();
    await expect(lines).toContainText('Payé');
    await snap(admin, 'payouts-admin-paid-desktop');

    // Statements and accounting export.
    await admin.getByRole('radio', { name: 'Relevés & comptabilité' }).click();
    await admin.getByLabel('Technicien').fill(own.name.split(' ').slice(1).join(' '));
    await admin.getByRole('option', { name: own.name }).click();
    await expect(admin.getByLabel('Technicien')).toHaveValue(own.name);
    await admin.getByLabel('Année').selectOption(day().slice(0, 4));
    const [statement] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('link', { name: 'Télécharger le relevé' }).click()]);
    expect(statement.suggestedFilename()).toMatch(/^releve-paiements-\d{4}-emilie-facade-oeuvre-\d{4}\.pdf$/);
    expect(fs.readFileSync(await statement.path()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await admin.getByLabel('Du').fill(day(-1));
    await admin.getByLabel('Au').fill(day(1));
    const [journal] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('link', { name: 'Exporter les paiements (CSV)' }).click()]);
    const csv = fs.readFileSync(await journal.path(), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('\uFEFFJournalCode;JournalLib;EcritureNum;EcritureDate;CompteNum;CompteLib;CompAuxNum;CompAuxLib;PieceRef;PieceDate;EcritureLib;Debit;Credit;EcritureLet;DateLet;ValidDate;Montantdevise;Idevise');
    expect(csv).toContain(`${reference}-001`);
    expect(csv).toContain('401000;Fournisseurs');
    await snap(admin, 'payouts-admin-statements-desktop');
    await adminContext.close();

    // --- Technician again: transfer Effectué with the batch line's reference, yearly statement ---------------------------
    await page.reload();
    const transferCard = page.getByRole('list', { name: 'Mes virements' }).getByRole('listitem').filter({ hasText: number });
    await expect(transferCard).toContainText('Effectué');
    await expect(transferCard).toContainText(`${reference}-001`);
    const statements = page.getByRole('list', { name: 'Relevés annuels' });
    await expect(statements).toContainText(`${day().slice(0, 4)} · 1 paiement · 650,00 € HT`);
    await snap(page, 'payouts-statements-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const [ownStatement] = await Promise.all([page.waitForEvent('download'), statements.getByRole('link', { name: `Relevé ${day().slice(0, 4)}` }).click()]);
    const bytes = fs.readFileSync(await ownStatement.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    fs.writeFileSync(path.join(SCREENS_DIR, 'payouts-statement.pdf'), bytes);
    await expect(page.getByText('Relevé annuel téléchargé', { exact: true })).toBeVisible();
  });
});
