import type { SiteVisit } from '@maillon/common/schemas/appointments';
import { api } from '@/lib/api-client';

/** GET /api/site-visits/{token}: the visit as the site contact sees it (public, the token is the credential). */
export function getSiteVisit(token: string): Promise<SiteVisit> {
  return api.get<SiteVisit>(`/api/site-visits/${encodeURIComponent(token)}`);
}

// The public pages load no query library (decision 017): one read per token, suspended on with React's use().
const reads = new Map<string, Promise<SiteVisit>>();

export function readSiteVisit(token: string): Promise<SiteVisit> {
  let read = reads.get(token);
  if (!read) {
    read = getSiteVisit(token);
    reads.set(token, read);
  }
  return read;
}

/** « Réessayer »: the next read asks the server again. */
export function forgetSiteVisit(token: string): void {
  reads.delete(token);
}
