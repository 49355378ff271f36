import type { SiteProposalRequest, SiteVisit } from '@maillon/common/schemas/appointments';
import { api } from '@/lib/api-client';

/** POST /api/site-visits/{token}/propose: « Proposer une autre date » with a window and a message. */
export function proposeSiteVisit(token: string, body: SiteProposalRequest): Promise<SiteVisit> {
  return api.post<SiteVisit>(`/api/site-visits/${encodeURIComponent(token)}/propose`, body);
}
