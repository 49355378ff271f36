import { visitReportPath } from './get-visit-report';

/**
 * The report's writes go through the offline queue (decision 023) in the device's scope, `mission:<id>`, the one of its
 * date and Effectué toggle: drafts, photos and the complete report reach the server in the order they were made, after
 * the device's other changes, and the device's row shows the pending mark.
 */
export const reportTarget = (missionId: string) => `mission:${missionId}`;

/** What a queued request of the report is, read back from its URL (the queue keeps plain requests). */
export type ReportRequestKind = { kind: 'draft' } | { kind: 'final' } | { kind: 'photo'; photoId: string } | { kind: 'photo-removal'; photoId: string };

export function reportRequestKind(missionId: string, method: string, url: string): ReportRequestKind | null {
  const base = visitReportPath(missionId);
  if (!url.startsWith(base)) return null;
  const rest = url.slice(base.length);
  if (rest === '' && method === 'PUT') return { kind: 'final' };
  if (rest === '/draft' && method === 'PUT') return { kind: 'draft' };
  const photo = /^\/photos\/([^/]+)$/.exec(rest);
  if (photo) {
    const photoId = decodeURIComponent(photo[1]!);
    if (method === 'PUT') return { kind: 'photo', photoId };
    if (method === 'DELETE') return { kind: 'photo-removal', photoId };
  }
  return null;
}
