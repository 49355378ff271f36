import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN } from '../fixtures/accounts';
import { snap, SCREENS_DIR } from '../fixtures/screens';

/**
 * Issue 7 at desktop size: moderation (Ajout Manuel with its messages, Refuser / Restaurer, CSV preview, Valider),
 * then Missions & Lots (À trier, Créer un lot, Organiser, visibility), the ATS (two technicians of our own apply,
 * Sélectionner, "Déjà assigné", Forcer Terminer Mission) and the finished lot under Terminés.
 * Every record is created here; the demo lots used by other specs are never touched.
 */

test.describe.configure({ mode: 'serial' });

const stamp = `${Date.now().toString(36)}${Math.round(Math.random() * 1e4)}`;
const CLIENT = `Médiathèque E2E ${stamp}`;
const MISSION_TITLE = `Maintenance - ${CLIENT}`;
const LOT_TITLE = `Lot E2E ${stamp}`;

async function loginAdmin(page: Page) {
  await page.goto('/admin/login');
  await page.getByLabel('Mot de passe').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
}

/** Open dialogs are captured at viewport size: a full-page capture resizes the window, which closes them. */
async function snapDialog(page: Page, name: string) {
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png` });
}

function lotCard(page: Page, title: string) {
  return page.getByRole('article', { name: title });
}

/** A fresh technician (registered, approved by the admin, trained) with its own API session. */
async function trainedTechnician(baseURL: string, admin: APIRequestContext, firstName: string) {
  const origin = new URL(baseURL).origin;
  const tech = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  const slug = firstName.normalize('NFD').replace(/[^a-z]/gi, '').toLowerCase();
  const email = `e2e-ats-${slug}-${stamp}@maillon.test`;
  const password = 'Candidat-E2E-2026!';
  const registered = await tech.post('/api/technicians/register', {
    multipart: {
      firstName,
      lastName: 'Candidat',
      email,
      password,
      phone: '06 11 22 33 44',
      companyName: `${firstName} Services`,
      address: '8 rue Mercière',
      postalCode: '69002',
      city: 'Lyon',
      country: 'France',
      departments: JSON.stringify(['69']),
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
  return { tech, technicianId, name: `${firstName} Candidat` };
}

test('moderation: Ajout Manuel with its messages, Refuser / Restaurer, CSV preview, Valider', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/dashboard?tab=missions-draft');
  await expect(page.getByRole('heading', { name: 'Défibrillateurs à modérer', level: 1 })).toBeVisible();
  await expect(page.getByRole('radio', { name: /À modérer/ })).toHaveAttribute('aria-checked', 'true');

  // Ajout Manuel: every required-field message, then the URL check.
  await page.getByRole('button', { name: 'Ajout Manuel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ajout Manuel' });
  await dialog.getByRole('button', { name: 'Ajouter la visite' }).click();
  for (const message of [
    'Le numéro de série est requis',
    'La dénomination client est requise',
    'Le modèle défibrillateur est requis',
    'Le type de visite est requis',
    'Le département est requis',
    "L'adresse postale est requise",
    'Le lien de complétion est requis',
  ]) {
    await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  }
  await dialog.getByLabel('Numéro de série ou minicode').fill(`SN-E2E-${stamp}`);
  await dialog.getByLabel('Dénomination client').fill(CLIENT);
  await dialog.getByLabel('Modèle défibrillateur').selectOption('Zoll - AED 3');
  await dialog.getByLabel('Type de visite').selectOption('Maintenance préventive');
  await dialog.getByLabel('Département').selectOption('69');
  await dialog.getByLabel('Adresse postale').fill('30 boulevard Vivier-Merle, 69003 Lyon');
  await dialog.getByLabel('Lien de complétion').fill('pas-un-lien');
  await dialog.getByLabel('Observations').fill('Accueil au rez-de-chaussée');
  await dialog.getByRole('button', { name: 'Ajouter la visite' }).click();
  await expect(dialog.getByText('Le lien de complétion doit être une URL valide')).toBeVisible();
  await snapDialog(page, 'admin-moderation-manual-form');
  await dialog.getByLabel('Lien de complétion').fill(`https://formulaires.maillon.fr/completion?serie=SN-E2E-${stamp}`);
  await dialog.getByRole('button', { name: 'Ajouter la visite' }).click();
  await expect(page.getByText('Mission créée avec succès', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  const visit = page.getByRole('article', { name: CLIENT });
  await expect(visit).toBeVisible();
  await snap(page, 'admin-moderation');

  // Refuser, then Restaurer from Refusées.
  await visit.getByRole('button', { name: 'Refuser' }).click();
  await expect(page.getByText('Mission refusée', { exact: true })).toBeVisible();
  await expect(visit).toBeHidden();
  await page.getByRole('radio', { name: /Refusées/ }).click();
  await expect(visit).toBeVisible();
  await visit.getByRole('button', { name: 'Restaurer' }).click();
  await expect(page.getByText('Mission restaurée', { exact: true })).toBeVisible();
  await page.getByRole('radio', { name: /À modérer/ }).click();
  await expect(visit).toBeVisible();

  // CSV import: the preview shows the row in error and nothing can be imported until it is fixed.
  await page.getByRole('button', { name: 'Importer un CSV' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Importer des visites (CSV)' });
  const csv = [
    'Numéro de série;Dénomination client;Modèle défibrillateur;Type de visite;Département;Adresse postale;Lien de complétion',
    `CSV-E2E-${stamp};Gare E2E ${stamp};Zoll - AED Plus;Installation;69;1 place Charles Béraudier, 69003 Lyon;https://f.maillon.fr/${stamp}`,
    `CSV-E2E-2-${stamp};;Zoll - AED Plus;Installation;69;2 place Béraudier, 69003 Lyon;lien-invalide`,
  ].join('\n');
  await importDialog.getByLabel('Fichier CSV').setInputFiles({ name: 'visites.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await importDialog.getByRole('button', { name: 'Prévisualiser' }).click();
  await expect(importDialog.getByText('Dénomination client : La dénomination client est requise')).toBeVisible();
  await expect(importDialog.getByText('Lien de complétion : Le lien de complétion doit être une URL valide')).toBeVisible();
  await expect(importDialog.getByRole('button', { name: 'Importer', exact: true })).toBeDisabled();
  await snapDialog(page, 'admin-moderation-csv-preview');
  await importDialog.getByRole('button', { name: 'Annuler' }).click();

  // Valider: the visit becomes a mission in "À trier".
  await visit.getByRole('button', { name: 'Valider' }).click();
  await expect(page.getByText(`« ${MISSION_TITLE} » est dans À trier.`, { exact: true })).toBeVisible();
  await expect(visit).toBeHidden();
});

test('missions & lots: À trier → Créer un lot → Organiser → visible → ATS → Forcer Terminer → Terminés', async ({ page, baseURL }) => {
  // A long journey on a machine shared with other builds.
  test.setTimeout(150_000);
  await loginAdmin(page);
  await page.goto('/admin/dashboard?tab=missions-active');
  await expect(page.getByRole('heading', { name: 'Missions & Lots', level: 1 })).toBeVisible();
  const unsorted = page.getByRole('list', { name: 'Missions à trier' });
  await expect(unsorted.getByText(MISSION_TITLE)).toBeVisible();

  // Search runs on the server over the mission fields.
  await page.getByLabel('Rechercher une mission').fill(`SN-E2E-${stamp}`);
  await expect(unsorted.getByRole('listitem')).toHaveCount(1);
  await page.getByLabel('Rechercher une mission').fill('');

  // Edit mission: the 02 §5 required fields.
  await unsorted.getByRole('button', { name: `Modifier ${MISSION_TITLE}` }).click();
  const missionDialog = page.getByRole('dialog', { name: 'Modifier la mission' });
  await missionDialog.getByLabel('Numéro de série ou minicode').fill('');
  await missionDialog.getByLabel('Lien de complétion').fill('lien');
  await missionDialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(missionDialog.getByText('Le numéro de série ou minicode est requis')).toBeVisible();
  await expect(missionDialog.getByText('Le lien de complétion doit être une URL valide')).toBeVisible();
  await missionDialog.getByLabel('Numéro de série ou minicode').fill(`SN-E2E-${stamp}`);
  await missionDialog.getByLabel('Lien de complétion').fill(`https://formulaires.maillon.fr/completion?serie=SN-E2E-${stamp}`);
  await missionDialog.getByLabel('Téléphone site').fill('04 72 00 00 00');
  await missionDialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Mission modifiée avec succès', { exact: true })).toBeVisible();
  await expect(missionDialog).toBeHidden();

  // Créer un lot: the title is required.
  await page.getByRole('button', { name: 'Créer un lot' }).first().click();
  const lotDialog = page.getByRole('dialog', { name: 'Créer un lot' });
  await lotDialog.getByRole('button', { name: 'Créer le lot' }).click();
  await expect(lotDialog.getByText('Veuillez saisir un titre pour le lot')).toBeVisible();
  await lotDialog.getByLabel('Titre du lot').fill(LOT_TITLE);
  await lotDialog.getByLabel('Offre HT pour 100%').fill('600');
  await lotDialog.getByLabel('Départements', { exact: true }).selectOption('69');
  await lotDialog.getByRole('button', { name: 'Maintenance préventive' }).click();
  await lotDialog.getByRole('button', { name: 'Zoll', exact: true }).click();
  await expect(lotDialog.getByText('Maximum 2 tags sélectionnés...')).toBeVisible();
  await expect(lotDialog.getByRole('button', { name: 'Installation', exact: true })).toBeDisabled();
  await snapDialog(page, 'admin-lot-create');
  await lotDialog.getByRole('button', { name: 'Créer le lot' }).click();
  await expect(page.getByText('Lot créé avec succès', { exact: true })).toBeVisible();
  const lot = lotCard(page, LOT_TITLE);
  await expect(lot).toBeVisible();
  await expect(lot.getByText('Invisible')).toBeVisible();
  await expect(lot.getByRole('button', { name: 'ATS' })).toBeDisabled();

  // Organiser: nothing selected first, then the mission into the lot.
  await page.getByRole('button', { name: 'Organiser (0 selected)' }).click();
  await expect(page.getByText('Aucune mission sélectionnée', { exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: `Sélectionner ${MISSION_TITLE}` }).click();
  await page.getByRole('button', { name: 'Organiser (1 selected)' }).click();
  const organise = page.getByRole('dialog', { name: 'Organiser les missions' });
  await organise.getByLabel('Déplacer vers').selectOption({ label: `${LOT_TITLE} (0 défibrillateur)` });
  await organise.getByRole('button', { name: 'Déplacer' }).click();
  await expect(page.getByText('Missions déplacées avec succès', { exact: true })).toBeVisible();
  await expect(unsorted.getByText(MISSION_TITLE)).toBeHidden();
  await expect(lot.getByText('0/1')).toBeVisible();
  await expect(lot.getByText('600,00 €')).toBeVisible();

  // Modifier: price per defibrillator shown, make it visible.
  await lot.getByRole('button', { name: 'Modifier' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Modifier le lot' });
  await expect(editDialog.getByText('Prix par défibrillateur : 600 €')).toBeVisible();
  await editDialog.getByRole('switch', { name: 'Visible par les techniciens' }).click();
  await editDialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Lot modifié avec succès', { exact: true })).toBeVisible();
  await expect(lot.getByText('Visible', { exact: true })).toBeVisible();
  await expect(lot.getByRole('button', { name: 'Supprimer' })).toBeDisabled();

  // Two technicians of our own apply through the API.
  const origin = new URL(baseURL!).origin;
  const admin = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  expect((await admin.post('/api/auth/login', { data: ADMIN })).ok()).toBe(true);
  const lots = (await (await admin.get(`/api/mission-batches?search=${encodeURIComponent(LOT_TITLE)}`)).json()) as { id: string; title: string }[];
  const batchId = lots.find((l) => l.title === LOT_TITLE)!.id;
  const first = await trainedTechnician(baseURL!, admin, 'Inès');
  const second = await trainedTechnician(baseURL!, admin, 'Bastien');
  for (const candidate of [first, second]) {
    const applied = await candidate.tech.post('/api/applications/batch', { data: { batchId, technicianId: candidate.technicianId, status: 'En attente' } });
    expect(applied.status(), await applied.text()).toBe(201);
  }

  // ATS: select the first, the second is then "Déjà assigné".
  await page.reload();
  await expect(lot.getByText('2 candidatures (2 en attente)')).toBeVisible();
  await lot.getByRole('button', { name: 'ATS' }).click();
  const ats = page.getByRole('dialog', { name: `Candidatures · ${LOT_TITLE}` });
  const firstCard = ats.getByRole('article', { name: `Candidature de ${first.name}` });
  const secondCard = ats.getByRole('article', { name: `Candidature de ${second.name}` });
  await expect(firstCard.getByText('Inès Services')).toBeVisible();
  await expect(firstCard.getByRole('button', { name: 'Envoyer le commentaire' })).toBeDisabled();
  await firstCard.getByLabel('Commentaire pour le technicien').fill('Merci de prévoir une batterie de rechange.');
  await firstCard.getByRole('button', { name: 'Envoyer le commentaire' }).click();
  await expect(page.getByText('Commentaire sauvegardé', { exact: true })).toBeVisible();
  await firstCard.getByRole('button', { name: 'Sélectionner' }).click();
  await expect(page.getByText('Technicien sélectionné avec succès', { exact: true })).toBeVisible();
  await expect(secondCard.getByRole('button', { name: 'Déjà assigné' })).toBeDisabled();
  await expect(firstCard.getByText('Sélectionné')).toBeVisible();
  await snapDialog(page, 'admin-ats');

  // Forcer Terminer Mission: the page reloads after 1 s and the lot is under Terminés.
  await ats.getByRole('button', { name: 'Forcer Terminer Mission' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Terminer la mission' }).click();
  await expect(page.getByText('Mission terminée', { exact: true })).toBeVisible();
  // Only the reload closes the dialog.
  await expect(ats).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Missions & Lots', level: 1 })).toBeVisible();
  await expect(lotCard(page, LOT_TITLE)).toBeHidden();
  // The sidebar badge is the server's count (unsorted missions + active lots).
  const counts = (await (await admin.get('/api/admin/counts')).json()) as { missionsLots: number };
  await expect(page.getByRole('link', { name: new RegExp(`Missions & Lots\\s*${counts.missionsLots}$`) })).toBeVisible();
  await page.getByRole('radio', { name: 'Terminés' }).click();
  const done = page.getByRole('article', { name: LOT_TITLE });
  await expect(done.getByText('Réalisé par')).toBeVisible();
  await expect(done.getByText(first.name)).toBeVisible();
  await snap(page, 'admin-lots-completed');

  // The undone device went to the system lot, ready to be organised again.
  await page.getByRole('radio', { name: 'Actifs' }).click();
  const system = page.getByRole('article', { name: 'Défibrillateurs de missions annulées' });
  await system.getByRole('button', { name: 'Missions' }).click();
  await expect(system.getByText(MISSION_TITLE)).toBeVisible();
  await snap(page, 'admin-missions-lots');

  await first.tech.dispose();
  await second.tech.dispose();
  await admin.dispose();
});

test('missions terminées: read-only cards', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/dashboard?tab=missions-completed');
  await expect(page.getByRole('heading', { name: 'Missions terminées', level: 1 })).toBeVisible();
  // The demo's finished lots have completed devices.
  await expect(page.getByText('Terminée', { exact: true }).first()).toBeVisible();
  await snap(page, 'admin-missions-completed');
  await page.getByLabel('Rechercher une mission terminée').fill(`introuvable-${stamp}`);
  await expect(page.getByText('Aucune mission terminée', { exact: true })).toBeVisible();
});
