import type { SiteVisit } from '@maillon/common/schemas/appointments';
import { api } from '@/lib/api-client';

/** POST /api/site-visits/{token}/confirm: « Confirmer »; the answer is the link, now used. */
export function confirmSiteVisit(token: string): Promise<SiteVisit> {
  return api.post<SiteVisit>(`/api/site-visits/${encodeURIComponent(token)}/confirm`);
}
