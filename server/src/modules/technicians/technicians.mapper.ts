import type { Technician } from '@maillon/common/schemas/technicians';
import { centsToEuros } from '@maillon/common/format';
import type { technicians } from '../../db/schema';
import { eurosSql } from '../../lib/pagination';

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

/**
 * A technician `t` as toTechnician answers it (technicianSchema), for a JSON row PostgreSQL writes (jsonRowSql, sent as
 * it is, decisions 050 and 058): the IBAN as the row keeps its last four characters, the files as their download
 * address, the earnings in euros, the times as `toISOString` (maillon_json_time).
 */
export const technicianFields: Record<string, string> = {
  id: 't.id',
  userId: 't.user_id',
  firstName: 't.first_name',
  lastName: 't.last_name',
  email: 't.email',
  phone: 't.phone',
  address: 't.address',
  city: 't.city',
  postalCode: 't.postal_code',
  country: 't.country',
  companyName: 't.company_name',
  siret: 't.siret',
  ibanLast4: 't.iban_last4',
  preferredRelayPoint: 't.preferred_relay_point',
  comments: 't.comments',
  departments: 't.departments',
  identityDocumentUrl: "'/api/files/' || t.identity_document_file_id::text",
  cvUrl: "'/api/files/' || t.cv_file_id::text",
  status: 't.status',
  formationCompleted: 't.formation_completed',
  formationStatus: 't.formation_status',
  totalEarnings: eurosSql('t.total_earnings_cents'),
  completedMissions: 't.completed_missions',
  createdAt: 'maillon_json_time(t.created_at)',
  updatedAt: 'maillon_json_time(t.updated_at)',
};
