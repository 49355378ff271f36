import { centsToEuros } from '@maillon/common/format';
import type { Job } from '@maillon/common/schemas/moderation';
import type { ApplicationWithTechnician, Mission } from '@maillon/common/schemas/admin-missions';
import { applications, jobs, missionBatches, missions, technicians } from '../../db/schema';
import { eurosSql, jsonRowSql } from '../../lib/pagination';

/** Explicit columns of a job row. */
export const jobColumns = {
  id: jobs.id,
  serialNumber: jobs.serialNumber,
  clientName: jobs.clientName,
  defibrillatorModel: jobs.defibrillatorModel,
  visitType: jobs.visitType,
  department: jobs.department,
  completionLink: jobs.completionLink,
  address: jobs.address,
  postalCode: jobs.postalCode,
  city: jobs.city,
  telSite: jobs.telSite,
  emailSite: jobs.emailSite,
  observations: jobs.observations,
  latitude: jobs.latitude,
  longitude: jobs.longitude,
  source: jobs.source,
  status: jobs.status,
  createdAt: jobs.createdAt,
};

type JobRow = Pick<typeof jobs.$inferSelect, keyof typeof jobColumns>;

export function toJob(row: JobRow): Job {
  return { ...row, status: row.status as Job['status'], createdAt: row.createdAt.toISOString() };
}

/** Explicit columns of a mission, with its lot's title (left join on mission_batches). */
export const missionColumns = {
  id: missions.id,
  title: missions.title,
  description: missions.description,
  location: missions.location,
  department: missions.department,
  budgetCents: missions.budgetCents,
  deadline: missions.deadline,
  tags: missions.tags,
  status: missions.status,
  batchId: missions.batchId,
  batchTitle: missionBatches.title,
  serialNumber: missions.serialNumber,
  clientName: missions.clientName,
  defibrillatorModel: missions.defibrillatorModel,
  visitType: missions.visitType,
  telSite: missions.telSite,
  emailSite: missions.emailSite,
  completionLink: missions.completionLink,
  observations: missions.observations,
  postalCode: missions.postalCode,
  city: missions.city,
  latitude: missions.latitude,
  longitude: missions.longitude,
  createdAt: missions.createdAt,
};

type MissionRow = Pick<typeof missions.$inferSelect, Exclude<keyof typeof missionColumns, 'batchTitle'>> & { batchTitle: string | null };

export function toMission(row: MissionRow): Mission {
  const { budgetCents, deadline, createdAt, status, ...rest } = row;
  return {
    ...rest,
    status: status as Mission['status'],
    budget: centsToEuros(budgetCents),
    deadline: deadline ? deadline.toISOString() : null,
    createdAt: createdAt.toISOString(),
  };
}


/**
 * A mission of the admin list (`missions`, its lot `b`) as the answer's JSON object, written by PostgreSQL with the
 * keys of missionSchema and the values toMission gives (decision 049): the euros as `centsToEuros`, the times as
 * `toISOString` (maillon_json_time). A page of them is sent as PostgreSQL wrote it (sendJsonText): no parse, mapping,
 * check or serialisation in Node. `missions-list.test.ts` compares each object with getMission's and parses the page
 * with `missionSchema.strict()`, which is the check the response schema no longer makes on the way out.
 */
export const missionJsonSql = jsonRowSql({
  id: 'missions.id',
  title: 'missions.title',
  description: 'missions.description',
  location: 'missions.location',
  department: 'missions.department',
  budget: eurosSql('missions.budget_cents'),
  deadline: 'maillon_json_time(missions.deadline)',
  tags: 'missions.tags',
  status: 'missions.status',
  batchId: 'missions.batch_id',
  batchTitle: 'b.title',
  serialNumber: 'missions.serial_number',
  clientName: 'missions.client_name',
  defibrillatorModel: 'missions.defibrillator_model',
  visitType: 'missions.visit_type',
  telSite: 'missions.tel_site',
  emailSite: 'missions.email_site',
  completionLink: 'missions.completion_link',
  observations: 'missions.observations',
  postalCode: 'missions.postal_code',
  city: 'missions.city',
  latitude: 'missions.latitude',
  longitude: 'missions.longitude',
  createdAt: 'maillon_json_time(missions.created_at)',
});

/** An application with the technician fields the ATS shows (never the IBAN or anything private beyond them). */
export const applicationWithTechnicianColumns = {
  id: applications.id,
  batchId: applications.batchId,
  missionId: applications.missionId,
  technicianId: applications.technicianId,
  status: applications.status,
  appliedAt: applications.appliedAt,
  adminComment: applications.adminComment,
  firstName: technicians.firstName,
  lastName: technicians.lastName,
  companyName: technicians.companyName,
  email: technicians.email,
  phone: technicians.phone,
  departments: technicians.departments,
  comments: technicians.comments,
  preferredRelayPoint: technicians.preferredRelayPoint,
  postalCode: technicians.postalCode,
  totalEarningsCents: technicians.totalEarningsCents,
  completedMissions: technicians.completedMissions,
};

type ApplicationRow = {
  id: string;
  batchId: string | null;
  missionId: string | null;
  technicianId: string;
  status: string;
  appliedAt: Date;
  adminComment: string | null;
  firstName: string;
  lastName: string;
  companyName: string | null;
  email: string;
  phone: string | null;
  departments: string[];
  comments: string | null;
  preferredRelayPoint: string | null;
  postalCode: string | null;
  totalEarningsCents: number;
  completedMissions: number;
};

export function toApplicationWithTechnician(row: ApplicationRow): ApplicationWithTechnician {
  return {
    id: row.id,
    batchId: row.batchId,
    missionId: row.missionId,
    technicianId: row.technicianId,
    status: row.status as ApplicationWithTechnician['status'],
    appliedAt: row.appliedAt.toISOString(),
    adminComment: row.adminComment,
    earnings: centsToEuros(row.totalEarningsCents),
    missionCount: row.completedMissions,
    technician: {
      firstName: row.firstName,
      lastName: row.lastName,
      companyName: row.companyName,
      email: row.email,
      phone: row.phone,
      departments: row.departments,
      remarks: row.comments,
      preferredRelayPoint: row.preferredRelayPoint,
      postalCode: row.postalCode,
    },
  };
}

/** PostgreSQL unique violation (23505), raised directly or wrapped by the driver / ORM. */
export function isUniqueViolation(error: unknown): boolean {
  const direct = (error as { code?: string })?.code;
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  return direct === '23505' || cause === '23505';
}
