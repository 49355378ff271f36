import { z } from 'zod';
import type { TechnicianStatus } from '../enums';
import { technicianSchema } from './technicians';

/**
 * Sub-tabs of the admin Techniciens tab. Rejected technicians are listed under Désactivés with the inactive ones
 * (docs/decisions/008-admin-operations.md): both are accounts that cannot sign in.
 */
export const TECHNICIAN_SUB_TABS = ['pending', 'active', 'inactive'] as const;
export type TechnicianSubTab = (typeof TECHNICIAN_SUB_TABS)[number];
export const TECHNICIAN_SUB_TAB_STATUSES: Record<TechnicianSubTab, readonly TechnicianStatus[]> = {
  pending: ['pending'],
  active: ['active'],
  inactive: ['inactive', 'rejected'],
};
export const TECHNICIAN_SUB_TAB_LABELS: Record<TechnicianSubTab, string> = {
  pending: 'À modérer',
  active: 'Actifs',
  inactive: 'Désactivés',
};

export const technicianListQuerySchema = z.object({
  status: z.enum(TECHNICIAN_SUB_TABS, { error: 'Statut inconnu' }).optional(),
  search: z.string().trim().max(200, 'Recherche trop longue').optional(),
  department: z.string().trim().max(3, 'Département inconnu').optional(),
});
export type TechnicianListQuery = z.infer<typeof technicianListQuerySchema>;

export const technicianCountsSchema = z.object({
  pending: z.number().int().nonnegative(),
  active: z.number().int().nonnegative(),
  inactive: z.number().int().nonnegative(),
});
export type TechnicianCounts = z.infer<typeof technicianCountsSchema>;

/** The admin card: the technician plus its training progress, current lots and the names of its documents. */
export const adminTechnicianSchema = technicianSchema.extend({
  resourcesRead: z.number().int().nonnegative(),
  resourcesTotal: z.number().int().nonnegative(),
  activeLots: z.number().int().nonnegative(),
  identityDocumentName: z.string().nullable(),
  cvName: z.string().nullable(),
});
export type AdminTechnician = z.infer<typeof adminTechnicianSchema>;
