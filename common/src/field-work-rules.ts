// Texts and limits of the recruited field work (spec 01 §2, §7), without zod: the technician's pages show them
// (decision 013); schemas/field-work.ts re-exports them for the server.

export const VISIT_DATE_REQUIRED = 'Veuillez d’abord sauvegarder une date de passage';
export const NO_SITE_EMAIL = 'Aucune adresse e-mail n’est renseignée pour ce site : prévenez le client par téléphone';
export const TECHNICIAN_INFO_MISSING = 'Informations du technicien non disponibles';
export const ADDRESS_MISSING = 'Adresse manquante';
export const ALL_DEVICES_REQUIRED = 'Toutes les missions doivent-êtres complétées pour clôturer la mission';
export const TECHNICIAN_COMMENT_MAX = 5000;
