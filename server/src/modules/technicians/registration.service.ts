import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { compactIban, compactSiret, PROFILE_MESSAGES } from '@maillon/common/schemas/profile';
import { REGISTRATION_MESSAGES, registrationSchema, type Registration } from '@maillon/common/schemas/registration';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { technicians, users } from '../../db/schema';
import { AppError, type FieldErrors } from '../../lib/app-error';
import { isCommonPassword } from '../../lib/common-passwords';
import { removeStoredFile, sniffFileType, storeFile, type FileType } from '../../lib/files';
import type { ObjectStorage } from '../../lib/storage/object-storage';
import { enqueueEmail } from '../../lib/outbox';
import { hashPassword } from '../../lib/passwords';
import { technicianHomeColumns } from '../../lib/positions';
import { enforceRateLimit } from '../../lib/rate-limit';
import type { UploadedPart } from './multipart';
import { registrationReceivedEmail } from './technicians.emails';

const HOUR = 60 * 60_000;
/** Sign-ups per IP and per e-mail address per hour (decisions.md §2: rate limits per IP and per e-mail). */
export const REGISTER_LIMITS = { perIp: 30, perEmail: 5, windowMs: HOUR } as const;

export const IDENTITY_TYPE_MESSAGE = "Format de fichier non accepté : la pièce d'identité doit être un PNG, un JPG ou un PDF";
export const REGISTRATION_CV_TYPE_MESSAGE = 'Format de fichier non accepté : le CV doit être un PDF ou un DOCX';

/** A zod failure as the API's 400: the first message for the toast, every field's first message in `fields`. */
export function validationError(error: z.ZodError): AppError {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return new AppError('VALIDATION_ERROR', error.issues[0]?.message ?? 'Données invalides', fields);
}

/** Multipart text fields → the shared registration schema (departments travel as a JSON array). */
export function parseRegistrationFields(fields: Record<string, string>): Registration {
  let departments: unknown = [];
  if (fields.departments) {
    try {
      departments = JSON.parse(fields.departments);
    } catch {
      throw new AppError('VALIDATION_ERROR', PROFILE_MESSAGES.departments, { departments: PROFILE_MESSAGES.departments });
    }
  }
  const result = registrationSchema.safeParse({
    firstName: fields.firstName ?? '',
    lastName: fields.lastName ?? '',
    email: fields.email ?? '',
    password: fields.password ?? '',
    phone: fields.phone,
    companyName: fields.companyName,
    siret: fields.siret,
    iban: fields.iban,
    preferredRelayPoint: fields.preferredRelayPoint,
    comments: fields.comments,
    address: fields.address,
    city: fields.city,
    postalCode: fields.postalCode,
    country: fields.country || 'France',
    departments,
    termsAccepted: fields.termsAccepted === 'true',
  });
  if (!result.success) throw validationError(result.error);
  return result.data;
}

async function checkFileType(part: UploadedPart | undefined, allowed: readonly FileType[], field: string, message: string): Promise<void> {
  if (!part) return;
  const type = await sniffFileType(part.buffer);
  if (part.buffer.length > 0 && (!type || !allowed.includes(type))) throw new AppError('INVALID_FILE', message, { [field]: message });
}

const orNull = (value: string | undefined) => (value ? value : null);

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export interface RegisterOptions {
  db: Db;
  config: Config;
  storage: ObjectStorage;
  ip: string;
  origin: string;
  fields: Record<string, string>;
  files: { identityDocument?: UploadedPart | undefined; cv?: UploadedPart | undefined };
}

/**
 * Creates the account (users row), the pending technician, its files and the "inscription reçue" e-mail in one
 * transaction: either everything exists afterwards or nothing does (files written before a failure are removed).
 */
export async function registerTechnician({ db, config, storage, ip, origin, fields, files }: RegisterOptions): Promise<{ technicianId: string }> {
  await enforceRateLimit(db, `register-ip:${ip}`, REGISTER_LIMITS.perIp, REGISTER_LIMITS.windowMs);
  const data = parseRegistrationFields(fields);
  const email = data.email.toLowerCase();
  await enforceRateLimit(db, `register-email:${email}`, REGISTER_LIMITS.perEmail, REGISTER_LIMITS.windowMs);
  if (isCommonPassword(data.password)) {
    throw new AppError('VALIDATION_ERROR', PROFILE_MESSAGES.commonPassword, { password: PROFILE_MESSAGES.commonPassword });
  }
  // Cheap type checks before the slow hash; the popup offers PDF or DOCX for the CV (spec §2).
  await checkFileType(files.identityDocument, ['png', 'jpeg', 'pdf'], 'identityDocument', IDENTITY_TYPE_MESSAGE);
  await checkFileType(files.cv, ['pdf', 'docx'], 'cv', REGISTRATION_CV_TYPE_MESSAGE);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) throw new AppError('ALREADY_EXISTS', REGISTRATION_MESSAGES.duplicateEmail, { email: REGISTRATION_MESSAGES.duplicateEmail });

  const passwordHash = await hashPassword(data.password);
  const written: string[] = [];
  try {
    return await db.transaction(async (tx) => {
      const storeWithField = async (field: string, options: Parameters<typeof storeFile>[1]) => {
        try {
          return await storeFile(tx, options);
        } catch (error) {
          if (error instanceof AppError && error.code === 'INVALID_FILE') throw new AppError('INVALID_FILE', error.message, { [field]: error.message });
          throw error;
        }
      };
      const [user] = await tx.insert(users).values({ email, passwordHash, role: 'technician' }).returning({ id: users.id });
      const [technician] = await tx
        .insert(technicians)
        .values({
          userId: user!.id,
          email,
          firstName: data.firstName,
          lastName: data.lastName,
          phone: orNull(data.phone),
          companyName: orNull(data.companyName),
          siret: data.siret ? compactSiret(data.siret) : null,
          iban: data.iban ? compactIban(data.iban) : null,
          preferredRelayPoint: orNull(data.preferredRelayPoint),
          comments: orNull(data.comments),
          address: orNull(data.address),
          city: orNull(data.city),
          postalCode: data.postalCode ? data.postalCode.replace(/\s+/g, '') : null,
          ...technicianHomeColumns({ address: data.address, city: data.city, postalCode: data.postalCode?.replace(/\s+/g, '') }),
          country: data.country,
          departments: data.departments,
          status: 'pending',
        })
        .returning({ id: technicians.id });
      const technicianId = technician!.id;

      const fileIds: { identityDocumentFileId?: string; cvFileId?: string } = {};
      if (files.identityDocument) {
        const stored = await storeWithField('identityDocument', {
          storage,
          technicianId,
          kind: 'identity',
          buffer: files.identityDocument.buffer,
          originalName: files.identityDocument.fileName,
          invalidTypeMessage: IDENTITY_TYPE_MESSAGE,
        });
        written.push(stored.storageKey);
        fileIds.identityDocumentFileId = stored.id;
      }
      if (files.cv) {
        const stored = await storeWithField('cv', {
          storage,
          technicianId,
          kind: 'cv',
          buffer: files.cv.buffer,
          originalName: files.cv.fileName,
          invalidTypeMessage: REGISTRATION_CV_TYPE_MESSAGE,
        });
        written.push(stored.storageKey);
        fileIds.cvFileId = stored.id;
      }
      if (fileIds.identityDocumentFileId || fileIds.cvFileId) {
        await tx.update(technicians).set(fileIds).where(eq(technicians.id, technicianId));
      }
      await enqueueEmail(
        tx,
        registrationReceivedEmail({
          to: email,
          firstName: data.firstName,
          productName: config.PRODUCT_NAME,
          loginUrl: `${origin}/technician/login`,
        }),
      );
      return { technicianId };
    });
  } catch (error) {
    await Promise.all(written.map((key) => removeStoredFile(storage, key)));
    if (isUniqueViolation(error)) {
      throw new AppError('ALREADY_EXISTS', REGISTRATION_MESSAGES.duplicateEmail, { email: REGISTRATION_MESSAGES.duplicateEmail });
    }
    throw error;
  }
}

/** The address used in e-mail links: PUBLIC_URL when configured, else the origin the request came to. */
export function publicOrigin(config: Config, requestOrigin: string): string {
  return (config.PUBLIC_URL ?? requestOrigin).replace(/\/+$/, '');
}
