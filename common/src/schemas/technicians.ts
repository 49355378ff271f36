import { z } from 'zod';
import { TECHNICIAN_STATUSES } from '../enums';

/** What a technician (or the admin) may read of a technician record: never the hash, never the full IBAN. */
export const technicianSchema = z.object({
  id: z.string().uuid(),
  userId: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string(),
  companyName: z.string().nullable(),
  siret: z.string().nullable(),
  ibanLast4: z.string().nullable(),
  preferredRelayPoint: z.string().nullable(),
  comments: z.string().nullable(),
  departments: z.array(z.string()),
  identityDocumentUrl: z.string().nullable(),
  cvUrl: z.string().nullable(),
  status: z.enum(TECHNICIAN_STATUSES),
  formationCompleted: z.boolean(),
  formationStatus: z.string(),
  totalEarnings: z.number(),
  completedMissions: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Technician = z.infer<typeof technicianSchema>;
