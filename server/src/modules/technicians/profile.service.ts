import { eq } from 'drizzle-orm';
import type { Technician } from '@maillon/common/schemas/technicians';
import { compactIban, compactSiret } from '@maillon/common/schemas/profile';
import { maskIban } from '@maillon/common/format';
import type { Db, DbOrTx } from '../../db/client';
import { storedFiles, technicians } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { removeStoredFile, storeFile } from '../../lib/files';
import { technicianHomeColumns } from '../../lib/positions';
import type { ObjectStorage } from '../../lib/storage/object-storage';
import { assertTechnicianSelf } from '../../plugins/access';
import type { AuthContext } from '../auth/auth.service';
import type { UploadedPart } from './multipart';
import { toTechnician } from './technicians.mapper';

const NOT_FOUND = 'Technicien introuvable';

async function findTechnicianRow(db: DbOrTx, technicianId: string) {
  const [row] = await db.select().from(technicians).where(eq(technicians.id, technicianId)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return row;
}

/** The technician itself or the admin; anyone else gets 404 (decisions.md §2). */
export async function getTechnician(db: Db, auth: AuthContext, technicianId: string): Promise<Technician> {
  assertTechnicianSelf(auth, technicianId, NOT_FOUND);
  return toTechnician(await findTechnicianRow(db, technicianId));
}

export type ProfileSection = 'address' | 'banking' | 'professional' | 'personal' | 'departments' | 'relay-point' | 'comments';

type TechnicianChanges = Partial<
  Pick<
    typeof technicians.$inferInsert,
    'address' | 'city' | 'postalCode' | 'latitude' | 'longitude' | 'iban' | 'companyName' | 'siret' | 'firstName' | 'lastName' | 'phone' | 'departments' | 'preferredRelayPoint' | 'comments'
  >
>;

const orNull = (value: string | undefined) => (value ? value : null);

/** Request body of a section → the columns it changes, normalised (empty → null, IBAN/SIRET compacted). */
export function sectionChanges(section: ProfileSection, body: Record<string, unknown>): TechnicianChanges {
  const text = (key: string) => orNull(body[key] as string | undefined);
  switch (section) {
    case 'address': {
      const address = { address: text('address'), city: text('city'), postalCode: text('postalCode')?.replace(/\s+/g, '') ?? null };
      // The home of distances and maps (docs/decisions/025), located offline when the address is saved.
      return { ...address, ...technicianHomeColumns(address) };
    }
    case 'banking':
      return { iban: compactIban(body.iban as string) };
    case 'professional': {
      const siret = text('siret');
      return { companyName: text('companyName'), siret: siret ? compactSiret(siret) : null };
    }
    case 'personal':
      return { firstName: body.firstName as string, lastName: body.lastName as string, phone: text('phone') };
    case 'departments':
      return { departments: body.departments as string[] };
    case 'relay-point':
      return { preferredRelayPoint: text('preferredRelayPoint') };
    case 'comments':
      return { comments: text('comments') };
  }
}

/** Values as written to the audit log: never a full IBAN. */
function auditView(changes: TechnicianChanges): Record<string, unknown> {
  return 'iban' in changes ? { ...changes, iban: maskIban(changes.iban) } : changes;
}

/** Changes one card of the profile. Admin edits of someone's profile are audited. */
export async function updateTechnicianSection(options: {
  db: Db;
  auth: AuthContext;
  technicianId: string;
  section: ProfileSection;
  body: Record<string, unknown>;
}): Promise<Technician> {
  const { db, auth, technicianId, section } = options;
  assertTechnicianSelf(auth, technicianId, NOT_FOUND);
  const changes = sectionChanges(section, options.body);
  return db.transaction(async (tx) => {
    const before = await findTechnicianRow(tx, technicianId);
    const [row] = await tx.update(technicians).set(changes).where(eq(technicians.id, technicianId)).returning();
    if (auth.role === 'admin') {
      const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof typeof before]])) as TechnicianChanges;
      await audit(tx, {
        actorUserId: auth.userId,
        action: `technician.update.${section}`,
        entity: 'technician',
        entityId: technicianId,
        before: auditView(previous),
        after: auditView(changes),
      });
    }
    return toTechnician(row!);
  });
}

export type DocumentKind = 'identity' | 'cv';

export const DOCUMENT_TYPE_MESSAGES: Record<DocumentKind, string> = {
  identity: "Format de fichier non accepté : la pièce d'identité doit être un PNG, un JPG ou un PDF",
  cv: 'Format de fichier non accepté : le CV doit être un PDF, un DOC ou un DOCX',
};

/**
 * Stores the new identity document or CV and points the technician to it; the previous file's row goes in the same
 * transaction and its bytes are deleted once the change has committed (a failure leaves no orphan either way).
 */
export async function replaceDocument(options: {
  db: Db;
  storage: ObjectStorage;
  auth: AuthContext;
  technicianId: string;
  kind: DocumentKind;
  file: UploadedPart;
}): Promise<Technician> {
  const { db, storage, auth, technicianId, kind, file } = options;
  assertTechnicianSelf(auth, technicianId, NOT_FOUND);
  const column = kind === 'identity' ? 'identityDocumentFileId' : 'cvFileId';
  let newKey: string | null = null;
  try {
    const { technician, oldKey } = await db.transaction(async (tx) => {
      const before = await findTechnicianRow(tx, technicianId);
      const stored = await storeFile(tx, {
        storage,
        technicianId,
        kind,
        buffer: file.buffer,
        originalName: file.fileName,
        invalidTypeMessage: DOCUMENT_TYPE_MESSAGES[kind],
      });
      newKey = stored.storageKey;
      const [row] = await tx.update(technicians).set({ [column]: stored.id }).where(eq(technicians.id, technicianId)).returning();
      let previousKey: string | null = null;
      const previousId = before[column];
      if (previousId) {
        const [old] = await tx.delete(storedFiles).where(eq(storedFiles.id, previousId)).returning({ storageKey: storedFiles.storageKey });
        previousKey = old?.storageKey ?? null;
      }
      if (auth.role === 'admin') {
        await audit(tx, { actorUserId: auth.userId, action: `technician.upload.${kind}`, entity: 'technician', entityId: technicianId });
      }
      return { technician: toTechnician(row!), oldKey: previousKey };
    });
    if (oldKey) await removeStoredFile(storage, oldKey);
    return technician;
  } catch (error) {
    if (newKey) await removeStoredFile(storage, newKey);
    throw error;
  }
}
