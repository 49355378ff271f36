import { describe, expect, it } from 'vitest';
import type { VisitReport } from '@maillon/common/schemas/visit-reports';
import type { LocalChange } from '@/lib/offline/use-queue';
import { deletePhotoRequest } from '../api/delete-visit-photo';
import { saveDraftRequest } from '../api/save-visit-report-draft';
import { saveReportRequest } from '../api/save-visit-report';
import { uploadPhotoRequest } from '../api/upload-visit-photo';
import type { QueuedRequestSpec } from '@/lib/offline/queue';
import { initialForm, localReport } from './local-report';
import { emptyForm, toRequest } from './report-form';

const missionId = '5d1c7e0a-1111-4c1a-9a3b-2b1f4f7f9a01';
const otherMission = '5d1c7e0a-2222-4c1a-9a3b-2b1f4f7f9a01';
const reportId = '5d1c7e0a-3333-4c1a-9a3b-2b1f4f7f9a01';
const photoA = '5d1c7e0a-4444-4c1a-9a3b-2b1f4f7f9a01';
const photoB = '5d1c7e0a-5555-4c1a-9a3b-2b1f4f7f9a01';
const serverPhoto = '5d1c7e0a-6666-4c1a-9a3b-2b1f4f7f9a01';

let clock = 1_000;
function change(spec: QueuedRequestSpec, waiting = true): LocalChange {
  clock += 1;
  return { request: { ...spec, key: `cle-${clock}`, userId: 'u1', queuedAt: clock }, waiting };
}

const serverDraft: VisitReport = {
  id: reportId,
  missionId,
  technicianId: 't1',
  deviceId: null,
  status: 'draft',
  version: 0,
  visitedAt: null,
  outcome: null,
  checklist: {},
  batteryExpiry: null,
  adultPadsExpiry: null,
  pediatricPadsPresent: null,
  pediatricPadsExpiry: null,
  consumablesReplaced: [],
  observations: null,
  signerName: null,
  signedAt: null,
  unsignedReason: null,
  hasSignature: false,
  signature: null,
  photos: [{ id: serverPhoto, width: 10, height: 10, size: 100, sha256: 'x' }],
  fingerprint: null,
  finalizedAt: null,
  draft: { values: { observations: 'Saisi en ligne', photoIds: [serverPhoto] }, updatedAt: '2026-11-25T08:00:00.000Z' },
  pdfAvailable: false,
} as unknown as VisitReport;

describe('localReport: the report as the offline queue holds it', () => {
  it('reads the latest draft, the photos with their Blobs, the removals, and only this device’s requests', () => {
    const blobA = new Blob(['a'], { type: 'image/jpeg' });
    const blobB = new Blob(['b'], { type: 'image/jpeg' });
    const first = { ...emptyForm(), observations: 'Premier jet' };
    const second = { ...emptyForm(), observations: 'Boîtier fissuré', outcome: 'Hors service' as const, photoIds: [photoA] };
    const changes = [
      change(saveDraftRequest({ missionId, title: 'Mairie', draft: toRequest(reportId, first) }), false),
      change(uploadPhotoRequest({ missionId, title: 'Mairie', reportId, photoId: photoA, file: blobA })),
      change(uploadPhotoRequest({ missionId, title: 'Mairie', reportId, photoId: photoB, file: blobB })),
      change(saveDraftRequest({ missionId, title: 'Mairie', draft: toRequest(reportId, second) })),
      change(deletePhotoRequest({ missionId, title: 'Mairie', photoId: photoB })),
      change(saveDraftRequest({ missionId: otherMission, title: 'Gymnase', draft: toRequest('5d1c7e0a-7777-4c1a-9a3b-2b1f4f7f9a01', { ...emptyForm(), observations: 'Autre' }) })),
    ];
    const local = localReport(missionId, changes);
    expect(local.values?.observations).toBe('Boîtier fissuré');
    expect(local.reportId).toBe(reportId);
    expect(local.waiting).toBe(true);
    expect(local.finalWaiting).toBe(false);
    expect(local.photos.map((photo) => photo.id)).toEqual([photoA, photoB]);
    expect(local.photos[0]!.blob).toBe(blobA);
    expect([...local.removedPhotos]).toEqual([photoB]);

    const form = initialForm(serverDraft, local);
    expect(form.observations).toBe('Boîtier fissuré');
    expect(form.outcome).toBe('Hors service');
    // photoA from the draft; photoB was taken then removed.
    expect(form.photoIds).toEqual([photoA]);
  });

  it('a complete report waiting marks it; a photo taken after the last draft is kept in the form', () => {
    const values = { ...emptyForm(), outcome: 'En fonctionnement' as const, signerName: 'M. Roux', signature: 'iVBORw0KGgo=', photoIds: [] };
    const request = toRequest(reportId, values);
    const changes = [
      change(saveReportRequest({ missionId, technicianId: 't1', title: 'Mairie', report: request as never })),
      change(uploadPhotoRequest({ missionId, title: 'Mairie', reportId, photoId: photoA, file: new Blob(['a']) })),
    ];
    const local = localReport(missionId, changes);
    expect(local.finalWaiting).toBe(true);
    expect(initialForm(null, local)).toMatchObject({ outcome: 'En fonctionnement', signerName: 'M. Roux', photoIds: [photoA] });
    // The complete report shows the device Effectué; « Site inaccessible » does not.
    expect(changes[0]!.request.shows).toEqual({ isCompleted: true });
    expect(saveReportRequest({ missionId, technicianId: 't1', title: 'Mairie', report: { ...request, outcome: 'Site inaccessible' } as never }).shows).toBeUndefined();
  });

  it('with nothing queued, the form is the server’s draft (its photos included)', () => {
    const local = localReport(missionId, []);
    expect(local).toMatchObject({ values: null, reportId: null, waiting: false, finalWaiting: false, photos: [] });
    expect(initialForm(serverDraft, local)).toMatchObject({ observations: 'Saisi en ligne', photoIds: [serverPhoto] });
  });

  it('every write of the report is in the device’s scope, with its kind of replacement', () => {
    const draft = saveDraftRequest({ missionId, title: 'Mairie', draft: toRequest(reportId, emptyForm()) });
    const photo = uploadPhotoRequest({ missionId, title: 'Mairie', reportId, photoId: photoA, file: new Blob(['a']) });
    const final = saveReportRequest({ missionId, technicianId: 't1', title: 'Mairie', report: toRequest(reportId, emptyForm()) as never });
    for (const spec of [draft, photo, final, deletePhotoRequest({ missionId, title: 'Mairie', photoId: photoA })]) {
      expect(spec.scope).toBe(`mission:${missionId}`);
      expect(spec.target).toBe(`mission:${missionId}`);
    }
    expect(draft.replaces).toBe(`mission:${missionId}:report-draft`);
    expect(final.replaces).toBe(`mission:${missionId}:report`);
    // Each photo is its own request: none replaces another.
    expect(photo.replaces).toBeUndefined();
    expect(photo.form?.map((part) => part.name)).toEqual(['reportId', 'file']);
    expect(photo.url).toBe(`/api/missions/${missionId}/visit-report/photos/${photoA}`);
  });
});
