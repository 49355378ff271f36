import { useQueuedRequest } from '@/lib/offline/use-queue';
import type { QueuedRequestSpec } from '@/lib/offline/queue';
import { applicationWorkQueryKey } from './work-get-application-work';

export interface SaveTechnicianCommentInput {
  technicianId: string;
  applicationId: string;
  /** The lot's title, for the pending and refused lists. */
  lotTitle: string;
  content: string;
}

export const lotCommentTarget = (applicationId: string) => `application:${applicationId}:comment`;

/** "Commentaire pour l'admin" of a lot, queued when offline; only the latest text waits (decision 023). */
export function saveTechnicianCommentRequest({ technicianId, applicationId, lotTitle, content }: SaveTechnicianCommentInput): QueuedRequestSpec {
  return {
    method: 'PUT',
    url: `/api/applications/${applicationId}/technician-comment`,
    json: { content },
    label: `Commentaire pour l'admin — ${lotTitle}`,
    target: lotCommentTarget(applicationId),
    scope: lotCommentTarget(applicationId),
    replaces: lotCommentTarget(applicationId),
    invalidate: [applicationWorkQueryKey(technicianId, applicationId)],
  };
}

export function useSaveTechnicianComment() {
  return useQueuedRequest(saveTechnicianCommentRequest);
}
