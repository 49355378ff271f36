/** Spec §2 texts of the registration, without zod so that the public pages can show them (decision 013). */
export const REGISTRATION_MESSAGES = {
  required: 'Veuillez remplir tous les champs obligatoires',
  emailInvalid: 'Adresse email invalide',
  terms: 'Vous devez lire les conditions générales et accepter la formation',
  success: 'Inscription enregistrée',
  failure: "Une erreur s'est produite lors de l'inscription",
  moderation:
    'Votre inscription est en cours de modération. Vous recevrez un email dès que votre compte sera validé ; vous pouvez déjà vous connecter pour suivre la formation.',
  duplicateEmail: 'Un compte existe déjà avec cette adresse email',
  forgotEmailRequired: 'Veuillez entrer votre adresse email',
} as const;
