import type { ReportValuesInput, VisitReport } from '@maillon/common/schemas/visit-reports';
import type { LocalChange } from '@/lib/offline/use-queue';
import { reportRequestKind } from '../api/report-target';
import { formFromReport, fromValues, type ReportForm } from './report-form';

type RequestValues = ReportValuesInput & { id: string };

/** What this phone holds of a device's report that the server's data may not show yet (the offline queue). */
export interface LocalReport {
  /** The values last sent from this phone (a draft or the complete report), waiting or just delivered. */
  values: RequestValues | null;
  /** The report id this phone used (the server does not know it while its first request waits). */
  reportId: string | null;
  /** The complete report waits for the network. */
  finalWaiting: boolean;
  /** Something of the report waits for the network. */
  waiting: boolean;
  /** Photos this phone sent or will send, with their image (shown from the Blob while the server lacks it). */
  photos: { id: string; blob: Blob; waiting: boolean }[];
  /** Photos removed on this phone. */
  removedPhotos: Set<string>;
}

/** The report's queued requests, read back (in the order they were made) from the queue's plain data. */
export function localReport(missionId: string, changes: readonly LocalChange[]): LocalReport {
  const local: LocalReport = { values: null, reportId: null, finalWaiting: false, waiting: false, photos: [], removedPhotos: new Set() };
  const ordered = [...changes].sort((a, b) => a.request.queuedAt - b.request.queuedAt);
  for (const { request, waiting } of ordered) {
    const kind = reportRequestKind(missionId, request.method, request.url);
    if (!kind) continue;
    local.waiting ||= waiting;
    if (kind.kind === 'draft' || kind.kind === 'final') {
      local.values = request.json as unknown as RequestValues;
      local.reportId ??= local.values.id;
      if (kind.kind === 'final') local.finalWaiting ||= waiting;
    } else if (kind.kind === 'photo') {
      const reportId = request.form?.find((part) => part.name === 'reportId');
      const file = request.form?.find((part) => part.name === 'file');
      if (reportId && 'value' in reportId) local.reportId ??= reportId.value;
      if (file && 'file' in file) local.photos = [...local.photos.filter((photo) => photo.id !== kind.photoId), { id: kind.photoId, blob: file.file, waiting }];
      local.removedPhotos.delete(kind.photoId);
    } else {
      local.removedPhotos.add(kind.photoId);
    }
  }
  return local;
}

/**
 * The form the screen opens with: what was last typed on this phone if it still waits (or was just delivered), else the
 * server's draft or report; photos taken here since the last draft are added, removed ones left out. Nothing typed is
 * lost by a reload, online or not.
 */
export function initialForm(report: VisitReport | null, local: LocalReport, partsComing: readonly string[] = []): ReportForm {
  const base = local.values ? fromValues(local.values, local.values.photoIds ?? []) : formFromReport(report, partsComing);
  const added = local.photos.map((photo) => photo.id).filter((id) => !base.photoIds.includes(id));
  return { ...base, photoIds: [...base.photoIds, ...added].filter((id) => !local.removedPhotos.has(id)) };
}
