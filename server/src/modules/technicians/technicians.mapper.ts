import type { Technician } from '@maillon/common/schemas/technicians';
import { centsToEuros } from '@maillon/common/format';
import type { technicians } from '../../db/schema';

export type TechnicianRow = typeof technicians.$inferSelect;

export function fileUrl(fileId: string | null): string | null {
  return fileId ? `/api/files/${fileId}` : null;
}

/** The safe view of a technician: no password, the IBAN reduced to its last 4 characters (the row's iban_last4). */
export function toTechnician(row: TechnicianRow): Technician {
  return {
    id: row.id,
    userId: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    address: row.address,
    city: row.city,
    postalCode: row.postalCode,
    country: row.country,
    companyName: row.companyName,
    siret: row.siret,
    ibanLast4: row.ibanLast4,
    preferredRelayPoint: row.preferredRelayPoint,
    comments: row.comments,
    departments: row.departments,
    identityDocumentUrl: fileUrl(row.identityDocumentFileId),
    cvUrl: fileUrl(row.cvFileId),
    status: row.status as Technician['status'],
    formationCompleted: row.formationCompleted,
    formationStatus: row.formationStatus,
    totalEarnings: centsToEuros(row.totalEarningsCents),
    completedMissions: row.completedMissions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
