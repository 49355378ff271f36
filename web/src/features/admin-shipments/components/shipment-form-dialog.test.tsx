import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Shipment, ShipmentLotOption } from '@maillon/common/schemas/shipments';
import { ShipmentFormDialog } from './shipment-form-dialog';

const PARIS: ShipmentLotOption = {
  batchId: '7c1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d01',
  title: 'Paris Est',
  technicianId: '6b1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d01',
  technicianName: 'Camille Expédiée',
  destination: 'Relais Paris Centre, 75011 Paris',
};
const LYON: ShipmentLotOption = {
  batchId: '7c1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d02',
  title: 'Lyon Centre',
  technicianId: '6b1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d02',
  technicianName: 'Julien Sansrelais',
  destination: 'Aucun point relais configuré',
};
/** A finished lot: no parcel can be made for it any more, but one it had can still be edited. */
const FINISHED_LOT_ID = '7c1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d03';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server's part: the lots whose title contains `search` (or the lot `batchId`), at most `limit`. */
function answer(url: string, init?: RequestInit) {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  if (pathname === '/api/shipments/admin/lot-options') {
    const search = (searchParams.get('search') ?? '').toLowerCase();
    const batchId = searchParams.get('batchId');
    const found = [LYON, PARIS].filter((lot) => lot.title.toLowerCase().includes(search) && (!batchId || lot.batchId === batchId));
    return json(found.slice(0, Number(searchParams.get('limit') ?? 20)));
  }
  const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
  if (pathname === '/api/shipments' && init?.method === 'POST') return json({ id: crypto.randomUUID(), ...body }, 201);
  if (pathname.startsWith('/api/shipments/') && init?.method === 'PATCH') return json({ id: pathname.split('/')[3], ...body });
  return json({ message: 'Introuvable' }, 404);
}

function mockServer() {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => answer(url, init));
  vi.stubGlobal('fetch', fetchMock);
  const lotReads = () => fetchMock.mock.calls.map(([url]) => url).filter((url) => url.startsWith('/api/shipments/admin/lot-options'));
  const writes = () =>
    fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'POST' || init?.method === 'PATCH')
      .map(([url, init]) => ({ url, method: init?.method, body: JSON.parse(String(init?.body)) as Record<string, unknown> }));
  return { lotReads, writes };
}

function renderDialog(props: { shipment?: Shipment | null; defaultBatchId?: string }) {
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ShipmentFormDialog open onOpenChange={onOpenChange} shipment={props.shipment ?? null} defaultBatchId={props.defaultBatchId} />
    </QueryClientProvider>,
  );
  return { onOpenChange };
}

const shipment = (overrides: Partial<Shipment> = {}): Shipment => ({
  id: '8d1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d01',
  batchId: FINISHED_LOT_ID,
  technicianId: '6b1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d09',
  technicianName: 'Zoé Ancienne',
  missionId: null,
  trackingNumber: null,
  carrier: 'Mondial Relay',
  status: 'draft',
  shippedDate: '2026-03-02T12:00:00.000Z',
  deliveredDate: null,
  destination: 'Relais Bellecour, 69002 Lyon',
  destinationPostalCode: '69002',
  content: 'Piles',
  missionTitle: 'Lot terminé',
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
  ...overrides,
});

/** The suggestions (the status select has options of its own). */
const lotOptions = () => within(screen.getByRole('listbox', { name: 'Lots de mission' })).queryAllByRole('option');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ShipmentFormDialog: the lot picker', () => {
  it('asks nothing before the list opens, requires a lot, then finds it by part of its title and shows its recruit', async () => {
    const server = mockServer();
    const user = userEvent.setup();
    const { onOpenChange } = renderDialog({});
    const lot = await screen.findByRole('combobox', { name: 'Lot de mission' });
    expect(lot).toHaveAttribute('placeholder', 'Choisir un lot');
    expect(server.lotReads()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Créer l’expédition' }));
    expect(await screen.findByText('Veuillez sélectionner un lot de mission')).toBeInTheDocument();
    expect(lot).toHaveAttribute('aria-invalid', 'true');
    expect(server.writes()).toEqual([]);

    await user.type(lot, 'yon CEN');
    await waitFor(() => expect(lotOptions()).toHaveLength(1));
    expect(server.lotReads().at(-1)).toBe('/api/shipments/admin/lot-options?search=yon+CEN&limit=20');
    // Debounced: not one request per key.
    expect(server.lotReads().length).toBeLessThanOrEqual(3);
    // Named by its title, described by its recipient (two lots may share a title).
    expect(screen.getByRole('option', { name: 'Lyon Centre' })).toHaveAccessibleDescription('Julien Sansrelais · Aucun point relais configuré');
    await user.click(screen.getByRole('option', { name: 'Lyon Centre' }));
    expect(lot).toHaveValue('Lyon Centre');
    expect(screen.queryByText('Veuillez sélectionner un lot de mission')).toBeNull();
    expect(screen.getByLabelText('Technicien')).toHaveValue('Julien Sansrelais');
    expect(screen.getByLabelText('Destination (point relais)')).toHaveValue('Aucun point relais configuré');

    await user.click(screen.getByRole('button', { name: 'Créer l’expédition' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(server.writes()).toEqual([{ url: '/api/shipments', method: 'POST', body: expect.objectContaining({ batchId: LYON.batchId }) }]);
  });

  it('says when no lot matches, and clearing the lot clears its recipient', async () => {
    mockServer();
    const user = userEvent.setup();
    renderDialog({});
    const lot = await screen.findByRole('combobox', { name: 'Lot de mission' });
    await user.click(lot);
    expect(await screen.findByRole('option', { name: 'Paris Est' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Paris Est' }));
    expect(screen.getByLabelText('Technicien')).toHaveValue('Camille Expédiée');

    await user.clear(lot);
    await user.type(lot, 'Marseille');
    expect(await screen.findByText('Aucun lot trouvé')).toBeInTheDocument();
    expect(lotOptions()).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Effacer le lot' }));
    expect(lot).toHaveValue('');
    expect(screen.getByLabelText('Technicien')).toHaveValue('');
    expect(screen.getByLabelText('Destination (point relais)')).toHaveValue('');
  });

  it('Escape closes the open list of lots, not the modal; pressed again, it closes the modal', async () => {
    mockServer();
    const user = userEvent.setup();
    const { onOpenChange } = renderDialog({});
    const lot = await screen.findByRole('combobox', { name: 'Lot de mission' });
    await user.type(lot, 'paris');
    await waitFor(() => expect(lotOptions()).toHaveLength(1));
    await user.keyboard('{Escape}');
    expect(lot).toHaveAttribute('aria-expanded', 'false');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Nouvelle expédition' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('opened from a lot, starts on that lot and its recruit, read alone', async () => {
    const server = mockServer();
    renderDialog({ defaultBatchId: PARIS.batchId });
    const lot = await screen.findByRole('combobox', { name: 'Lot de mission' });
    expect(lot).toHaveValue('Paris Est');
    expect(screen.getByLabelText('Technicien')).toHaveValue('Camille Expédiée');
    expect(screen.getByLabelText('Destination (point relais)')).toHaveValue('Relais Paris Centre, 75011 Paris');
    expect(server.lotReads()).toEqual([`/api/shipments/admin/lot-options?batchId=${PARIS.batchId}&limit=1`]);
  });

  it('opened from a lot that takes no parcel any more, starts without a lot', async () => {
    mockServer();
    renderDialog({ defaultBatchId: FINISHED_LOT_ID });
    const lot = await screen.findByRole('combobox', { name: 'Lot de mission' });
    expect(lot).toHaveValue('');
    expect(screen.getByLabelText('Technicien')).toHaveValue('');
  });

  it('editing shows the parcel’s own lot and recipient without asking the server, and can move it to another lot', async () => {
    const server = mockServer();
    const user = userEvent.setup();
    const { onOpenChange } = renderDialog({ shipment: shipment(), defaultBatchId: PARIS.batchId });
    const lot = await screen.findByRole('combobox', { name: 'Lot de mission' });
    expect(lot).toHaveValue('Lot terminé');
    expect(screen.getByLabelText('Technicien')).toHaveValue('Zoé Ancienne');
    expect(screen.getByLabelText('Destination (point relais)')).toHaveValue('Relais Bellecour, 69002 Lyon');
    expect(server.lotReads()).toEqual([]);

    await user.clear(lot);
    await user.type(lot, 'paris');
    await user.click(await screen.findByRole('option', { name: 'Paris Est' }));
    expect(screen.getByLabelText('Technicien')).toHaveValue('Camille Expédiée');
    expect(screen.getByLabelText('Destination (point relais)')).toHaveValue('Relais Paris Centre, 75011 Paris');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(server.writes()).toEqual([
      { url: `/api/shipments/${shipment().id}`, method: 'PATCH', body: expect.objectContaining({ batchId: PARIS.batchId }) },
    ]);
  });
});
