/**
 * Query keys shared across features, so a mutation in one feature can refresh what another shows
 * (e.g. the technician's tab counts after applying) without importing that feature.
 */
export const queryKeys = {
  me: ['auth', 'me'] as const,
  technicianCounts: (technicianId: string) => ['technicians', technicianId, 'counts'] as const,
  adminCounts: ['admin', 'counts'] as const,
  /** The technician's applications (every filter and page below this prefix). */
  applications: (technicianId: string) => ['applications', technicianId] as const,
  /** The technician's parcels (every search and page below this prefix). */
  parcels: (technicianId: string) => ['shipments', technicianId, 'mine'] as const,
  /** The lots open to applications (every filter and page below this prefix). */
  availableLots: ['mission-batches', 'available'] as const,
  /** The admin's parcels and the lots' proposed parcels (issue 20): a new recruit changes them. */
  adminShipments: ['admin', 'shipments'] as const,
  /** The admin's lots (their « Voir Colis » follows the parcels). */
  adminLots: ['admin', 'mission-batches'] as const,
};
