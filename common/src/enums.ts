export const USER_ROLES = ['admin', 'technician'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const TECHNICIAN_STATUSES = ['pending', 'active', 'inactive', 'rejected'] as const;
export type TechnicianStatus = (typeof TECHNICIAN_STATUSES)[number];
export const TECHNICIAN_STATUS_LABELS: Record<TechnicianStatus, string> = {
  pending: 'En attente de modération',
  active: 'Actif',
  inactive: 'Désactivé',
  rejected: 'Rejeté',
};

export const MISSION_STATUSES = ['draft', 'active', 'completed', 'cancelled'] as const;
export type MissionStatus = (typeof MISSION_STATUSES)[number];
export const MISSION_STATUS_LABELS: Record<MissionStatus, string> = {
  draft: 'Brouillon',
  active: 'Active',
  completed: 'Terminée',
  cancelled: 'Annulée',
};

export const BATCH_VISIBILITIES = ['invisible', 'visible'] as const;
export type BatchVisibility = (typeof BATCH_VISIBILITIES)[number];
export const BATCH_STATUSES = ['active', 'completed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const JOB_STATUSES = ['pending', 'refused'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const APPLICATION_STATUSES = ['En attente', 'pending', 'Recruté', 'Terminé', 'Refusé', 'Annulé'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
/** The statuses of an application whose technician holds the lot: recruited, then finished (decisions §4). */
export const RECRUITED_APPLICATION_STATUSES = ['Recruté', 'Terminé'] as const satisfies readonly ApplicationStatus[];
/** Pills of the technician's applications tab; Annulé is listed under Refusé (decisions §4). */
export const APPLICATION_PILLS = ['Recruté', 'En attente', 'Refusé', 'Terminé'] as const;
export type ApplicationPill = (typeof APPLICATION_PILLS)[number];
export const APPLICATION_PILL_STATUSES: Record<ApplicationPill, readonly ApplicationStatus[]> = {
  Recruté: ['Recruté'],
  'En attente': ['En attente', 'pending'],
  Refusé: ['Refusé', 'Annulé'],
  Terminé: ['Terminé'],
};

export const INVOICE_STATUSES = [
  'Mission à terminer',
  'Facture à soumettre',
  'Facture envoyée',
  'Traité',
  'Terminé',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const TRANSFER_STATUSES = ['Enregistré', 'Effectué', 'Refus'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const SHIPMENT_STATUSES = ['draft', 'in_transit', 'delivered', 'cancelled'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
export const SHIPMENT_STATUS_LABELS: Record<ShipmentStatus, string> = {
  draft: 'Brouillon',
  in_transit: 'Expédié',
  delivered: 'Réceptionné',
  cancelled: 'Annulé',
};

export const LEARNING_RESOURCE_TYPES = ['document', 'video', 'interactive', 'pdf', 'other'] as const;
export type LearningResourceType = (typeof LEARNING_RESOURCE_TYPES)[number];
export const LEARNING_RESOURCE_TYPE_LABELS: Record<LearningResourceType, string> = {
  document: 'Document',
  video: 'Vidéo',
  interactive: 'Interactif',
  pdf: 'PDF',
  other: 'Autre',
};

export const EMAIL_STATUSES = ['pending', 'sent', 'logged', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const TECHNICIAN_TABS = [
  'formation',
  'find-missions',
  'applications',
  'revenue',
  'packages',
  'profile',
  'missions',
] as const;
export type TechnicianTab = (typeof TECHNICIAN_TABS)[number];

export const ADMIN_TABS = [
  'missions-draft',
  'missions-active',
  'missions-completed',
  'technicians',
  'invoices',
  'shipments',
  'library',
  'settings',
  'devices',
] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/** How a submitted invoice arrived: Factur-X (EN 16931 XML read and checked) or a plain PDF (decision 021). */
export const E_INVOICE_FORMATS = ['factur-x', 'pdf'] as const;
export type EInvoiceFormat = (typeof E_INVOICE_FORMATS)[number];
export const E_INVOICE_FORMAT_LABELS: Record<EInvoiceFormat, string> = { 'factur-x': 'Factur-X', pdf: 'PDF simple' };

/** A SEPA payout batch: Préparé (file produced, waiting for the bank) → Payé, or Annulé before being sent. */
export const PAYOUT_BATCH_STATUSES = ['Préparé', 'Payé', 'Annulé'] as const;
export type PayoutBatchStatus = (typeof PAYOUT_BATCH_STATUSES)[number];
export const PAYOUT_LINE_STATUSES = ['À payer', 'Payé', 'Refusé', 'Annulé'] as const;
export type PayoutLineStatus = (typeof PAYOUT_LINE_STATUSES)[number];

/** A defibrillator's functional state: Géo'DAE's values (schema-dae `etat_fonct`), word for word. */
export const DEVICE_STATES = ['En fonctionnement', 'Hors service', 'Supprimé définitivement', 'Absent momentanément', 'Inconnu'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** What a visit found: one of Géo'DAE's states, or the technician could not reach the device. */
export const SITE_INACCESSIBLE = 'Site inaccessible';
export const VISIT_OUTCOMES = [...DEVICE_STATES, SITE_INACCESSIBLE] as const;
export type VisitOutcome = (typeof VISIT_OUTCOMES)[number];

/** Where the device is (schema-dae `acc`). */
export const DEVICE_ACCESS = ['Intérieur', 'Extérieur'] as const;
export type DeviceAccess = (typeof DEVICE_ACCESS)[number];

/** The consumables a parcel replaces on a defibrillator (issue 20), in the order the admin reads them. */
export const CONSUMABLE_KINDS = ['battery', 'adult_pads', 'pediatric_pads'] as const;
export type ConsumableKind = (typeof CONSUMABLE_KINDS)[number];
export const CONSUMABLE_KIND_LABELS: Record<ConsumableKind, string> = {
  battery: 'Batterie',
  adult_pads: 'Électrodes adulte',
  pediatric_pads: 'Électrodes pédiatriques',
};
