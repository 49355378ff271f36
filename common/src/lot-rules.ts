/** Choices of the technician's lot search, without zod (the technician's page imports them, decision 013). */

/** Radius filter of the lot search, km ("tous" is no radius). */
export const LOT_RADII_KM = [25, 50, 100, 200] as const;
export type LotRadius = (typeof LOT_RADII_KM)[number];

/** "Les plus proches" (from the technician's address) or "Les plus récents". */
export const LOT_SORTS = ['nearest', 'recent'] as const;
export type LotSort = (typeof LOT_SORTS)[number];
