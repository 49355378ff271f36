import { describe, expect, it } from 'vitest';
import { saveReportRequestSchema } from '@maillon/common/schemas/visit-reports';
import type { VisitReport } from '@maillon/common/schemas/visit-reports';
import { checkForm, emptyForm, formFromReport, fromLocalInput, toLocalInput, toRequest } from './report-form';

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const saved: VisitReport = {
  id: '0b7c8c2e-8f0a-4a53-9a3b-2b1f4f7f9a01',
  missionId: '0b7c8c2e-8f0a-4a53-9a3b-2b1f4f7f9a02',
  technicianId: '0b7c8c2e-8f0a-4a53-9a3b-2b1f4f7f9a03',
  deviceId: null,
  status: 'final',
  version: 1,
  visitedAt: '2026-05-12T08:30:00.000Z',
  outcome: 'En fonctionnement',
  checklist: { battery: 'ok' },
  batteryExpiry: '2029-01-01',
  adultPadsExpiry: '2028-01-01',
  pediatricPadsPresent: false,
  pediatricPadsExpiry: null,
  consumablesReplaced: [],
  observations: 'RAS',
  signerName: 'Mme Durand',
  signedAt: '2026-05-12T09:00:00.000Z',
  unsignedReason: null,
  hasSignature: true,
  signature: 'iVBORw0KGgo=',
  photos: [{ id: '0b7c8c2e-8f0a-4a53-9a3b-2b1f4f7f9a04', width: 10, height: 10, size: 100, sha256: 'x' }],
  fingerprint: 'f',
  finalizedAt: '2026-05-12T09:05:00.000Z',
  updatedAt: '2026-05-12T09:05:00.000Z',
  draft: null,
};

describe('report form', () => {
  it('starts empty, now as the visit time', () => {
    const form = formFromReport(null);
    expect(form.outcome).toBeNull();
    expect(Math.abs(new Date(form.visitedAt).getTime() - Date.now())).toBeLessThan(120_000);
  });

  it('starts « consommables remplacés » from the parts sent for the device, but never over a saved report', () => {
    const coming = ['Batterie Zoll AED 3', 'Électrodes Zoll CPR Uni-padz (AED 3)'];
    expect(formFromReport(null, coming).consumablesReplaced).toEqual(coming);
    expect(formFromReport(saved, coming).consumablesReplaced).toEqual(saved.consumablesReplaced);
  });

  it('takes the draft over the saved report, and keeps photos sent after the draft', () => {
    const extra = '0b7c8c2e-8f0a-4a53-9a3b-2b1f4f7f9a05';
    const form = formFromReport({
      ...saved,
      photos: [...saved.photos, { ...saved.photos[0]!, id: extra }],
      draft: { values: { ...toRequest(saved.id, { ...emptyForm(), outcome: 'Hors service', observations: 'Voyant rouge' }), photoIds: [saved.photos[0]!.id] } as never, updatedAt: '2026-05-13T10:00:00.000Z' },
    });
    expect(form).toMatchObject({ outcome: 'Hors service', observations: 'Voyant rouge', photoIds: [saved.photos[0]!.id, extra] });
  });

  it('gives back the saved signature so a correction keeps it', () => {
    const form = formFromReport(saved);
    expect(form.signature).toBe('iVBORw0KGgo=');
    expect(toRequest(saved.id, form)).toMatchObject({ signature: 'iVBORw0KGgo=', signerName: 'Mme Durand', unsignedReason: null, photoIds: [saved.photos[0]!.id] });
  });

  it('sends no signature when it could not be collected, and the reason instead', () => {
    const body = toRequest(saved.id, { ...formFromReport(saved), cannotSign: true, unsignedReason: 'Personne sur place' });
    expect(body).toMatchObject({ signature: null, signerName: null, unsignedReason: 'Personne sur place' });
  });

  it('checks with the server’s rules, and a request it accepts passes the server’s schema', () => {
    const incomplete = { ...emptyForm(), outcome: 'En fonctionnement' as const, adultPadsExpiry: '2020-01-01' };
    const errors = checkForm(incomplete);
    expect(errors.checklist).toBe('Complétez la liste de contrôle');
    expect(errors.adultPadsExpiry).toMatch(/la date est dépassée/);
    expect(errors.signature).toMatch(/Faites signer/);
    const complete = {
      ...emptyForm(new Date(Date.now() - 3600_000)),
      outcome: 'En fonctionnement' as const,
      checklist: { generalCondition: 'ok', statusIndicator: 'ok', battery: 'ok', adultPads: 'ok', pediatricPads: 'na', signage: 'ok', cabinet: 'ok' } as const,
      batteryExpiry: future(400),
      adultPadsExpiry: future(300),
      pediatricPadsPresent: false,
      signerName: 'M. Haddad',
      signature: 'iVBORw0KGgo=',
    };
    expect(checkForm(complete)).toEqual({});
    expect(saveReportRequestSchema.safeParse(toRequest(saved.id, complete)).success).toBe(true);
  });

  it('converts the datetime-local value both ways', () => {
    const date = new Date(2026, 4, 12, 8, 30);
    expect(toLocalInput(date)).toBe('2026-05-12T08:30');
    expect(fromLocalInput('2026-05-12T08:30')).toBe(date.toISOString());
    expect(fromLocalInput('')).toBeNull();
  });
});
