import { z } from 'zod';
import { EMAIL_STATUSES } from '../enums';

export const EMAIL_STATUS_LABELS: Record<(typeof EMAIL_STATUSES)[number], string> = {
  pending: 'En attente',
  sent: 'Envoyé',
  logged: 'Journalisé',
  failed: 'Échec',
};

/** What the Réglages tab shows: the real configuration of the running server, never a secret. */
export const adminSettingsSchema = z.object({
  adminEmail: z.string(),
  mail: z.object({
    mode: z.enum(['smtp', 'logged']),
    from: z.string(),
    stats: z.object({
      pending: z.number().int(),
      sent: z.number().int(),
      logged: z.number().int(),
      failed: z.number().int(),
    }),
  }),
  storage: z.object({
    database: z.enum(['pglite', 'postgres']),
    dataDir: z.string(),
    uploadsBytes: z.number().int(),
    uploadsFiles: z.number().int(),
    /** Where the files live: this machine's disk, or an S3-compatible bucket shared by every instance. */
    filesDriver: z.enum(['local', 's3']),
    filesLocation: z.string(),
  }),
  ingestion: z.object({
    configured: z.boolean(),
    path: z.string(),
    publicUrl: z.string().nullable(),
    lastIngestedAt: z.string().nullable(),
  }),
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;

export const outboxEmailSchema = z.object({
  id: z.string().uuid(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(EMAIL_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxEmail = z.infer<typeof outboxEmailSchema>;

/** GET /api/admin/settings/emails/{id}: one e-mail with its text (password-reset links masked) and its attachments. */
export const outboxEmailDetailSchema = outboxEmailSchema.extend({
  text: z.string(),
  attachments: z.array(z.object({ fileName: z.string(), contentType: z.string(), disposition: z.string() })),
});
export type OutboxEmailDetail = z.infer<typeof outboxEmailDetailSchema>;

/** GET /api/admin/audit: one sensitive admin action, newest first. */
export const auditEntrySchema = z.object({
  id: z.string().uuid(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
