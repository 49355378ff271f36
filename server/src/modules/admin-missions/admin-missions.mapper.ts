import { sql } from 'drizzle-orm';
import { centsToEuros } from '@maillon/common/format';
import type { Job } from '@maillon/common/schemas/moderation';
import type { ApplicationWithTechnician, Mission } from '@maillon/common/schemas/admin-missions';
import { applications, jobs, missionBatches, missions, technicians } from '../../db/schema';
import { epochMsSql } from '../../lib/pagination';

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
 * What the admin list shows of a mission (`missions`, its lot `b`) as one JSON array built by PostgreSQL, the fields of
 * missionColumns in order: a page is one JSON value that JavaScript parses natively, instead of rows whose arrays and
 * dates the driver parses field by field and Drizzle maps (decision 031). Read back by missionOfTuple.
 */
export const missionTupleSql = sql.raw(`json_build_array(missions.id, missions.title, missions.description, missions.location,
  missions.department, missions.budget_cents, ${epochMsSql('missions.deadline')}, missions.tags, missions.status, missions.batch_id, b.title,
  missions.serial_number, missions.client_name, missions.defibrillator_model, missions.visit_type, missions.tel_site,
  missions.email_site, missions.completion_link, missions.observations, missions.postal_code, missions.city, missions.latitude,
  missions.longitude, ${epochMsSql('missions.created_at')})`);

export type MissionTuple = [
  id: string,
  title: string,
  description: string | null,
  location: string | null,
  department: string | null,
  budgetCents: number,
  deadline: number | null,
  tags: string[],
  status: string,
  batchId: string | null,
  batchTitle: string | null,
  serialNumber: string | null,
  clientName: string | null,
  defibrillatorModel: string | null,
  visitType: string | null,
  telSite: string | null,
  emailSite: string | null,
  completionLink: string | null,
  observations: string | null,
  postalCode: string | null,
  city: string | null,
  latitude: number | null,
  longitude: number | null,
  createdAt: number,
];

/** A page as the list's statement answers it: its total and its missions (missionTupleSql). */
export type MissionPage = { total: number; missions: MissionTuple[] };

/** The same Mission as toMission, from a tuple of missionTupleSql. */
export function missionOfTuple(tuple: MissionTuple): Mission {
  const [id, title, description, location, department, budgetCents, deadline, tags, status, batchId, batchTitle, serialNumber,
    clientName, defibrillatorModel, visitType, telSite, emailSite, completionLink, observations, postalCode, city, latitude, longitude,
    createdAt] = tuple;
  return {
    id,
    title,
    description,
    location,
    department,
    tags,
    batchId,
    batchTitle,
    serialNumber,
    clientName,
    defibrillatorModel,
    visitType,
    telSite,
    emailSite,
    completionLink,
    observations,
    postalCode,
    city,
    latitude,
    longitude,
    status: status as Mission['status'],
    budget: centsToEuros(budgetCents),
    deadline: deadline === null ? null : new Date(deadline).toISOString(),
    createdAt: new Date(createdAt).toISOString(),
  };
}

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
