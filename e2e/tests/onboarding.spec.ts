import { expect, request as playwrightRequest, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, PHONE } from '../fixtures/accounts';
import { snap } from '../fixtures/screens';

// Real files: a 1×1 PNG and a one-page PDF with a correct cross-reference table.
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 20 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const PASSWORD = 'Chaine-De-Survie-2026';
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@exemple.fr`;

async function expectNoHorizontalScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

/** Opens the terms, scrolls them to the end and closes them: the training box becomes available. */
async function readTerms(scope: Locator, page: Page) {
  await scope.getByRole('button', { name: 'Lire les conditions générales' }).click();
  const terms = page.getByRole('dialog', { name: "Conditions Générales d'Utilisation et de Services" });
  await expect(terms).toBeVisible();
  await expect(terms.getByRole('heading', { name: /^Article 8/ })).toBeAttached();
  const accept = terms.getByRole('button', { name: "J'ai lu les conditions" });
  await expect(accept).toBeDisabled();
  await expect(terms.getByText('Faites défiler jusqu’en bas pour continuer.')).toBeVisible();
  const text = terms.getByRole('region', { name: 'Texte des conditions générales' });
  // Halfway is not enough.
  await text.evaluate((el) => el.scrollTo(0, (el.scrollHeight - el.clientHeight) / 2));
  await expect(accept).toBeDisabled();
  await text.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(accept).toBeEnabled();
  await expect(terms.getByText('Vous avez lu les conditions jusqu’au bout.')).toBeVisible();
  return { terms, accept };
}

async function fillRequired(scope: Locator, email: string, firstName = 'Ada') {
  await scope.getByLabel('Prénom').fill(firstName);
  await scope.getByRole('textbox', { name: 'Nom', exact: true }).fill('Lovelace');
  await scope.getByLabel('Email').fill(email);
  await scope.getByLabel('Mot de passe').fill(PASSWORD);
}

test.describe('technician onboarding', () => {
  test('registration popup at phone size: terms gating, validation messages, files, moderation, first login, admin approval', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/technician/login');
    await page.getByRole('button', { name: "S'enregistrer" }).click();
    const dialog = page.getByRole('dialog', { name: 'Inscription technicien' });
    await expect(dialog).toBeVisible();

    // Terms not read: neither the training box nor the submit button can be used.
    const submit = dialog.getByRole('button', { name: "S'enregistrer" });
    const training = dialog.getByRole('checkbox', { name: /je m'engage à suivre la formation obligatoire/ });
    await expect(submit).toBeDisabled();
    await expect(training).toBeDisabled();
    await expect(dialog.getByText("Lisez les conditions générales jusqu'en bas pour pouvoir vous inscrire.")).toBeVisible();
    await expect(dialog.getByLabel('Pays')).toHaveValue('France');
    await snap(page, 'onboarding-register-popup-phone');

    const { terms, accept } = await readTerms(dialog, page);
    await snap(page, 'onboarding-terms-phone');
    await accept.click();
    await expect(terms).toBeHidden();
    await expect(training).toBeEnabled();
    await expect(submit).toBeEnabled();

    // Every validation message of spec §5, in French, under its field.
    await submit.click();
    await expect(dialog.getByText('Veuillez remplir tous les champs obligatoires').first()).toBeVisible();
    await expect(dialog.getByText('Vous devez sélectionner entre 1 et 3 départements')).toBeVisible();
    await expect(dialog.getByText('Vous devez lire les conditions générales et accepter la formation')).toBeVisible();
    await dialog.getByLabel('Email').fill('ada.exemple.fr');
    await dialog.getByLabel('Mot de passe').fill('abc');
    await submit.click();
    await expect(dialog.getByText('Adresse email invalide')).toBeVisible();
    await expect(dialog.getByText('Le mot de passe doit contenir au moins 6 caractères')).toBeVisible();
    await snap(page, 'onboarding-register-errors-phone');

    // 1 to 3 departments: the fourth is refused.
    const departments = dialog.getByLabel("Départements d'intervention (1 à 3)");
    for (const code of ['69', '01', '38']) await departments.selectOption(code);
    await departments.selectOption('42');
    await expect(page.getByText('Limite atteinte', { exact: true })).toBeVisible();
    await expect(page.getByText('Vous pouvez sélectionner maximum 3 départements', { exact: true })).toBeVisible();
    const chosen = dialog.getByRole('list', { name: 'Départements sélectionnés' }).getByRole('listitem');
    await expect(chosen).toHaveCount(3);
    await dialog.getByRole('button', { name: 'Retirer Ain (01)' }).click();
    await expect(chosen).toHaveCount(2);

    // A file of the wrong kind is refused before sending.
    await dialog.getByLabel('CV').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG_1X1 });
    await expect(dialog.getByText('Format de fichier non accepté : le CV doit être un PDF ou un DOCX')).toBeVisible();

    const email = uniqueEmail('popup');
    await fillRequired(dialog, email);
    await dialog.getByLabel('Téléphone').fill('06 12 34 56 78');
    await dialog.getByLabel('SIRET').fill('732 829 320 00074');
    await dialog.getByLabel('IBAN').fill('FR76 3000 6000 0112 3456 7890 189');
    await dialog.getByLabel('Ville').fill('Lyon');
    await dialog.getByLabel('Code postal').fill('69002');
    await dialog.getByLabel("Pièce d'identité").setInputFiles({ name: 'identite.png', mimeType: 'image/png', buffer: PNG_1X1 });
    await dialog.getByLabel('CV').setInputFiles({ name: 'cv-ada.pdf', mimeType: 'application/pdf', buffer: onePagePdf('CV Ada Lovelace') });
    await expect(dialog.getByText('cv-ada.pdf')).toBeVisible();
    await training.check();
    await expectNoHorizontalScroll(page);
    await submit.click();

    await expect(page.getByText('Inscription enregistrée', { exact: true }).first()).toBeVisible();
    await expect(dialog.getByText(/en cours de modération/)).toBeVisible();
    await snap(page, 'onboarding-register-success-phone');

    // The new pending technician signs in and sees the moderation notice.
    await dialog.getByRole('button', { name: 'Se connecter' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await page.getByLabel('Mot de passe').fill(PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/technician\/dashboard/);
    await expect(page.getByRole('main').getByText(/Votre inscription est en cours de modération/)).toBeVisible();
    await snap(page, 'onboarding-pending-dashboard-phone');

    // The uploaded files belong to the account and are readable by it only.
    const me = await (await page.request.get('/api/auth/me')).json();
    expect(me.technician.status).toBe('pending');
    expect(me.technician.departments).toEqual(['69', '38']);
    expect(me.technician.ibanLast4).toBe('0189');
    const cv = await page.request.get(me.technician.cvUrl);
    expect(cv.status()).toBe(200);
    expect(cv.headers()['content-type']).toBe('application/pdf');
    const identity = await page.request.get(me.technician.identityDocumentUrl);
    expect(identity.headers()['content-type']).toBe('image/png');

    // The admin finds the pending technician and approves it: the moderation notice disappears.
    const baseURL = new URL(page.url()).origin;
    const admin = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
    try {
      expect((await admin.post('/api/auth/login', { data: ADMIN })).status()).toBe(200);
      const pending = await admin.get(`/api/technicians?status=pending&search=${encodeURIComponent(email)}`);
      expect(pending.status()).toBe(200);
      const found = (await pending.json()) as { id: string; email: string; status: string }[];
      expect(found.map((t) => t.email)).toEqual([email]);
      expect((await admin.patch(`/api/technicians/${found[0]!.id}/approve`)).status()).toBe(200);
    } finally {
      await admin.dispose();
    }
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Trouver des missions', level: 1 })).toBeVisible();
    await expect(page.getByRole('main').getByText(/Votre inscription est en cours de modération/)).toBeHidden();
    expect((await (await page.request.get('/api/auth/me')).json()).technician.status).toBe('active');
  });

  test('registration page at phone size: cancel link, terms gating, success then back to login after 2 s', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/technician/register');
    await expect(page.getByRole('heading', { name: 'Inscription technicien', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Annuler' })).toHaveAttribute('href', '/technician/login');
    const form = page.locator('form');
    const submit = page.getByRole('button', { name: "S'enregistrer" });
    await expect(submit).toBeDisabled();
    await expect(page.getByRole('checkbox', { name: /formation obligatoire/ })).toBeDisabled();
    await expectNoHorizontalScroll(page);
    await snap(page, 'onboarding-register-page-phone');

    const email = uniqueEmail('page');
    await fillRequired(form, email, 'Grace');
    await page.getByLabel("Départements d'intervention (1 à 3)").selectOption('2A');
    const { accept } = await readTerms(form, page);
    await accept.click();
    await submit.click();
    // Read, not ticked: refused with the §5 message.
    await expect(page.getByText('Vous devez lire les conditions générales et accepter la formation')).toBeVisible();
    await page.getByRole('checkbox', { name: /formation obligatoire/ }).check();
    await submit.click();
    await expect(page.getByRole('heading', { name: 'Inscription enregistrée' })).toBeVisible();
    await expect(page.getByText(/en cours de modération/).first()).toBeVisible();
    await snap(page, 'onboarding-register-page-success-phone');
    await expect(page).toHaveURL(/\/technician\/login$/);

    // The same address cannot register twice.
    await page.goto('/technician/register');
    await fillRequired(page.locator('form'), email, 'Grace');
    await page.getByLabel("Départements d'intervention (1 à 3)").selectOption('75');
    await (await readTerms(page.locator('form'), page)).accept.click();
    await page.getByRole('checkbox', { name: /formation obligatoire/ }).check();
    await page.getByRole('button', { name: "S'enregistrer" }).click();
    await expect(page.getByText("Erreur d'inscription", { exact: true })).toBeVisible();
    await expect(page.getByText('Un compte existe déjà avec cette adresse email').first()).toBeVisible();

    await page.getByRole('link', { name: 'Annuler' }).click();
    await expect(page).toHaveURL(/\/technician\/login$/);
  });

  test('forgot password dialog and the reset page with a bad link', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/technician/login');
    await page.getByRole('button', { name: 'Mot de passe oublié ?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mot de passe oublié' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Envoyer le lien' }).click();
    await expect(dialog.getByText('Veuillez entrer votre adresse email')).toBeVisible();
    await dialog.getByLabel('Email').fill(uniqueEmail('oubli'));
    await snap(page, 'onboarding-forgot-password-phone');
    await dialog.getByRole('button', { name: 'Envoyer le lien' }).click();
    await expect(page.getByText('Email envoyé', { exact: true })).toBeVisible();
    await expect(page.getByText('Un email avec un lien de réinitialisation a été envoyé à votre adresse', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.goto('/technician/reset-password');
    await expect(page.getByRole('alert')).toContainText('Ce lien de réinitialisation est incomplet');

    await page.goto('/technician/reset-password?token=ce-lien-n-existe-pas-du-tout-0123456789');
    await expect(page.getByRole('heading', { name: 'Nouveau mot de passe', level: 1 })).toBeVisible();
    await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('Un-Nouveau-Mot-2026');
    await page.getByLabel('Confirmer le nouveau mot de passe').fill('Un-Autre-Mot-2026');
    await page.getByRole('button', { name: 'Enregistrer le nouveau mot de passe' }).click();
    await expect(page.getByText('Les nouveaux mots de passe ne correspondent pas')).toBeVisible();
    await page.getByLabel('Confirmer le nouveau mot de passe').fill('Un-Nouveau-Mot-2026');
    await page.getByRole('button', { name: 'Enregistrer le nouveau mot de passe' }).click();
    await expect(page.getByRole('alert').filter({ hasText: "Ce lien de réinitialisation n'est pas valide ou a déjà été utilisé" })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await snap(page, 'onboarding-reset-invalid-phone');
    await page.getByRole('link', { name: 'Retour à la connexion' }).click();
    await expect(page).toHaveURL(/\/technician\/login$/);
  });

  test('Mon compte at phone size: every card saves and persists, documents, terms, password change, logout', async ({ page }) => {
    await page.setViewportSize(PHONE);
    // Our own technician, so other journeys' demo data stays untouched.
    const email = uniqueEmail('profil');
    const registered = await page.request.post('/api/technicians/register', {
      multipart: {
        firstName: 'Marie',
        lastName: 'Curie',
        email,
        password: PASSWORD,
        departments: JSON.stringify(['75']),
        termsAccepted: 'true',
      },
    });
    expect(registered.status()).toBe(201);
    expect((await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } })).status()).toBe(200);

    await page.goto('/technician/dashboard?tab=profile');
    await expect(page.getByRole('heading', { name: 'Mon compte', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
    await expect(page.getByLabel('Email', { exact: true })).toBeDisabled();
    await expect(page.getByText('Aucun CV')).toBeVisible();
    await expect(page.getByText('Aucun IBAN enregistré')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await snap(page, 'onboarding-profile-phone');

    const card = (name: string) => page.getByRole('region', { name });
    const toastText = (text: string) => page.getByText(text, { exact: true }).first();

    // The section links take a phone straight to a card far down the page, clear of the sticky header.
    const sections = page.getByRole('navigation', { name: 'Rubriques de Mon compte' });
    await expect(card('Documents')).not.toBeInViewport();
    await sections.getByRole('button', { name: 'Documents' }).click();
    await expect(card('Documents')).toBeInViewport();
    await expect(card('Documents')).toBeFocused();
    const top = () => card('Documents').evaluate((el) => el.getBoundingClientRect().top);
    await expect.poll(top).toBeLessThan(150);
    const header = await page.locator('header').first().evaluate((el) => el.getBoundingClientRect().bottom);
    expect(await top()).toBeGreaterThanOrEqual(header);
    // Every link lands on its card: a card renamed without its link would leave the focus on the link.
    const links = await sections.getByRole('button').all();
    expect(links).toHaveLength(10);
    for (const link of links) {
      await link.click();
      await expect(page.locator('[role="region"]:focus'), await link.innerText()).toBeInViewport();
    }
    await sections.getByRole('button', { name: 'Identité' }).click();
    await expect(card('Informations personnelles')).toBeInViewport();

    const personal = card('Informations personnelles');
    await personal.getByLabel('Prénom').fill('Maria');
    await personal.getByLabel('Téléphone').fill('06 98 76 54 32');
    await personal.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toastText('Informations personnelles mises à jour')).toBeVisible();

    const professional = card('Informations professionnelles');
    await professional.getByLabel("Nom de l'entreprise").fill('Curie Secours');
    await professional.getByLabel('SIRET').fill('73282932000075');
    await professional.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(professional.getByText('SIRET invalide : vérifiez sa saisie (clé de contrôle incorrecte)')).toBeVisible();
    await professional.getByLabel('SIRET').fill('73282932000074');
    await professional.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toastText('Informations professionnelles mises à jour')).toBeVisible();

    const address = card('Adresse postale');
    await address.getByLabel('Adresse').fill('1 rue Pierre et Marie Curie');
    await address.getByLabel('Ville').fill('Paris');
    await address.getByLabel('Code postal').fill('75005');
    await address.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toastText('Adresse mise à jour')).toBeVisible();

    const banking = card('Informations bancaires');
    await banking.getByLabel('IBAN').fill('FR76 3000 6000 0112 3456 7890 188');
    await banking.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(banking.getByText('IBAN invalide : vérifiez sa saisie (clé de contrôle incorrecte)')).toBeVisible();
    await banking.getByLabel('IBAN').fill('FR76 3000 6000 0112 3456 7890 189');
    await banking.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toastText('Informations bancaires mises à jour')).toBeVisible();
    await expect(banking.getByLabel('IBAN se terminant par 0189')).toBeVisible();

    const zones = card("Zones d'action");
    const picker = zones.getByLabel("Départements d'intervention");
    const save = zones.getByRole('button', { name: 'Enregistrer' });
    await expect(save).toBeDisabled();
    await picker.selectOption('92');
    await picker.selectOption('93');
    await picker.selectOption('94');
    await expect(toastText('Limite atteinte')).toBeVisible();
    for (const name of ['Retirer Paris (75)', 'Retirer Hauts-de-Seine (92)', 'Retirer Seine-Saint-Denis (93)']) {
      await zones.getByRole('button', { name }).click();
    }
    await expect(zones.getByText('Vous devez sélectionner entre 1 et 3 départements')).toBeVisible();
    await expect(save).toBeDisabled();
    await picker.selectOption('971');
    await picker.selectOption('2B');
    await save.click();
    await expect(toastText("Zones d'action mises à jour")).toBeVisible();

    const relay = card('Point relais favori');
    await relay.getByLabel('Point relais préféré').fill('Relais Maison de la Presse, 5 rue Mouffetard');
    await relay.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toastText('Point relais mis à jour')).toBeVisible();

    const comments = card('Informations complémentaires');
    await comments.getByLabel('Commentaire libre').fill('Disponible le samedi matin.');
    await comments.getByRole('button', { name: 'Sauvegarder' }).click();
    await expect(toastText('Informations complémentaires sauvegardées')).toBeVisible();

    // Documents: a wrong type is refused in the browser, a PDF CV and a PNG identity are sent.
    const documents = card('Documents');
    await documents.getByLabel('Choisir un CV').setInputFiles({ name: 'cv.txt', mimeType: 'text/plain', buffer: Buffer.from('texte') });
    await expect(toastText('Erreur lors du téléchargement du fichier')).toBeVisible();
    await documents.getByLabel('Choisir un CV').setInputFiles({ name: 'cv-marie.pdf', mimeType: 'application/pdf', buffer: onePagePdf('CV Marie Curie') });
    await expect(toastText('CV mis à jour')).toBeVisible();
    await documents.getByLabel("Choisir une pièce d'identité").setInputFiles({ name: 'identite.png', mimeType: 'image/png', buffer: PNG_1X1 });
    await expect(toastText("Pièce d'identité mise à jour")).toBeVisible();
    const cvLink = documents.getByRole('link', { name: /Voir mon CV/ });
    await expect(cvLink).toHaveAttribute('target', '_blank');
    const [cvWindow] = await Promise.all([page.waitForEvent('popup'), cvLink.click()]);
    const cvHref = await cvLink.getAttribute('href');
    expect(cvHref).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    const cvFile = await page.request.get(cvHref!);
    expect(cvFile.status()).toBe(200);
    expect(cvFile.headers()['content-type']).toBe('application/pdf');
    expect((await cvFile.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await cvWindow.close();
    await snap(page, 'onboarding-profile-edited-phone');

    // Everything is still there after a reload.
    await page.reload();
    await expect(personal.getByLabel('Prénom')).toHaveValue('Maria');
    await expect(personal.getByLabel('Téléphone')).toHaveValue('06 98 76 54 32');
    await expect(professional.getByLabel('SIRET')).toHaveValue('73282932000074');
    await expect(address.getByLabel('Code postal')).toHaveValue('75005');
    await expect(banking.getByLabel('IBAN se terminant par 0189')).toBeVisible();
    await expect(zones.getByRole('button', { name: 'Retirer Guadeloupe (971)' })).toBeVisible();
    await expect(zones.getByRole('button', { name: 'Retirer Haute-Corse (2B)' })).toBeVisible();
    await expect(relay.getByLabel('Point relais préféré')).toHaveValue('Relais Maison de la Presse, 5 rue Mouffetard');
    await expect(comments.getByLabel('Commentaire libre')).toHaveValue('Disponible le samedi matin.');
    await expect(documents.getByRole('link', { name: /Voir la pièce d'identité/ })).toBeVisible();

    // Légal: the terms can be read again.
    await card('Légal').getByRole('button', { name: 'Relire les conditions générales' }).click();
    const terms = page.getByRole('dialog', { name: "Conditions Générales d'Utilisation et de Services" });
    await expect(terms.getByRole('heading', { name: /^Article 5/ })).toBeAttached();
    await terms.getByRole('button', { name: 'Fermer' }).first().click();
    await expect(terms).toBeHidden();

    // Password change: the §5 messages, then success and a reload.
    const security = card('Sécurité');
    await security.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await expect(security.getByText('Veuillez entrer votre mot de passe actuel')).toBeVisible();
    await expect(security.getByText('Veuillez entrer un nouveau mot de passe')).toBeVisible();
    await security.getByLabel('Mot de passe actuel').fill(PASSWORD);
    await security.getByLabel('Nouveau mot de passe', { exact: true }).fill('Radium-1898');
    await security.getByLabel('Confirmer le nouveau mot de passe').fill('Polonium-1898');
    await security.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await expect(security.getByText('Les nouveaux mots de passe ne correspondent pas')).toBeVisible();
    await security.getByLabel('Confirmer le nouveau mot de passe').fill('Radium-1898');
    const reloaded = page.waitForEvent('load');
    await security.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await expect(toastText('Mot de passe modifié')).toBeVisible();
    await reloaded;
    await expect(page.getByRole('heading', { name: 'Mon compte', level: 1 })).toBeVisible();

    // Logout asks first, then the new password opens the account.
    await card('Déconnexion').getByRole('button', { name: 'Se déconnecter' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Êtes-vous sûr de vouloir vous déconnecter ?' });
    await expect(confirm).toBeVisible();
    await snap(page, 'onboarding-logout-confirm-phone');
    await confirm.getByRole('button', { name: 'Se déconnecter' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/technician/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Mot de passe').fill('Radium-1898');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/technician\/dashboard/);
  });
});
