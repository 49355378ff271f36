import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SiteVisit } from '@maillon/common/schemas/appointments';
import { SiteVisitPage } from './site-visit-page';

const open: SiteVisit = {
  state: 'open',
  canConfirm: true,
  canPropose: true,
  usedAction: null,
  usedAt: null,
  visit: {
    slot: { date: '2026-03-12', window: 'morning', startTime: '08:00', endTime: '12:00' },
    siteName: 'Mairie de Lyon 2ᵉ',
    address: '2 place de la Mairie, 69002 Lyon',
    deviceModel: 'ZOLL AED Plus',
    serialNumber: 'SN-1',
    technicianFirstName: 'Camille',
    companyName: 'Défib’Services',
  },
  proposal: null,
};

/** The page suspends on its read (React's use()): the first render runs in act so React sees the read settle. */
async function renderPage(token: string) {
  let result!: ReturnType<typeof render>;
  await act(async () => {
    result = render(<SiteVisitPage token={token} />);
  });
  return result;
}

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

let tokenCounter = 0;
const freshToken = () => `jeton-de-test-${(tokenCounter += 1)}`;

describe('SiteVisitPage (/rdv/:token)', () => {
  it('shows the visit and confirms it', async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) =>
      init?.method === 'POST' ? answer(200, { ...open, state: 'used', usedAction: 'confirmed', usedAt: '2026-03-10T13:05:00Z', canConfirm: false, canPropose: false }) : answer(200, open),
    );
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    const token = freshToken();
    await renderPage(token);
    expect(await screen.findByText('jeudi 12 mars 2026')).toBeInTheDocument();
    expect(screen.getByText('le matin (8 h – 12 h)')).toBeInTheDocument();
    expect(screen.getByText('Technicien : Camille (Défib’Services)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirmer' }));
    expect(await screen.findByText('Merci, le passage est confirmé')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenLastCalledWith(`/api/site-visits/${token}/confirm`, expect.objectContaining({ method: 'POST' }));
    expect(screen.queryByRole('button', { name: 'Confirmer' })).toBeNull();
  });

  it('checks the proposal before sending it, then sends the date, window and message', async () => {
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? answer(200, { ...open, state: 'used', usedAction: 'proposed', proposal: { slot: { date: '2099-03-14', window: 'afternoon', startTime: '14:00', endTime: '18:00' }, message: 'Fermé le matin' } })
        : answer(200, open),
    );
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    await renderPage(freshToken());
    await user.click(await screen.findByRole('button', { name: 'Proposer une autre date' }));
    await user.click(await screen.findByRole('button', { name: 'Envoyer la proposition' }));
    expect(await screen.findByText('Choisissez la date que vous proposez')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Date proposée'), '2099-03-14');
    await user.selectOptions(screen.getByLabelText('Créneau'), 'afternoon');
    await user.type(screen.getByLabelText('Message pour le technicien (facultatif)'), 'Fermé le matin');
    await user.click(screen.getByRole('button', { name: 'Envoyer la proposition' }));
    expect(await screen.findByText('Merci, votre proposition a été envoyée')).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls.at(-1)!;
    expect(JSON.parse(String(init!.body))).toEqual({ date: '2099-03-14', window: 'afternoon', message: 'Fermé le matin' });
  });

  it('says clearly when the link is unknown, used or expired', async () => {
    // React reports the error its boundary caught: expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', vi.fn(async () => answer(404, { message: 'Ce lien n’existe pas ou n’est plus valable', code: 'NOT_FOUND' })));
    const { unmount } = await renderPage(freshToken());
    expect(await screen.findByRole('heading', { name: 'Lien introuvable' })).toBeInTheDocument();
    unmount();

    vi.stubGlobal('fetch', vi.fn(async () => answer(200, { ...open, state: 'used', usedAction: 'confirmed', usedAt: '2026-03-10T13:05:00Z', visit: null, canConfirm: false, canPropose: false })));
    const used = await renderPage(freshToken());
    expect(await screen.findByText('Ce lien a déjà été utilisé')).toBeInTheDocument();
    expect(screen.getByText(/Vous avez confirmé ce passage le 10\/03\/2026 à 14:05/)).toBeInTheDocument();
    used.unmount();

    vi.stubGlobal('fetch', vi.fn(async () => answer(200, { ...open, state: 'expired', visit: null, canConfirm: false, canPropose: false })));
    await renderPage(freshToken());
    expect(await screen.findByText('Ce lien a expiré')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
