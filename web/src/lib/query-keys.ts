/**
 * Query keys shared across features, so a mutation in one feature can refresh what another shows
 * (e.g. the technician's tab counts after applying) without importing that feature.
 */
export const queryKeys = {
  me: ['auth', 'me'] as const,
  technicianCounts: (technicianId: string) => ['technicians', technicianId, 'counts'] as const,
  adminCounts: ['admin', 'counts'] as const,
};
