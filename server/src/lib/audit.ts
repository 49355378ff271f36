import type { DbOrTx } from '../db/client';
import { auditLog } from '../db/schema';

/** Append-only record of a sensitive admin action (decisions.md §2). */
export async function audit(
  tx: DbOrTx,
  entry: { actorUserId: string | null; action: string; entity: string; entityId?: string | null; before?: unknown; after?: unknown },
): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    before: entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === undefined ? null : JSON.stringify(entry.after),
  });
}
