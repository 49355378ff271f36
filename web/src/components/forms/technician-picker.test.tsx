import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TechnicianOption } from '@maillon/common/schemas/money';
import { Field } from '@/components/ui/field';
import { TechnicianPicker } from './technician-picker';

const JULIEN = { id: '6b1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d01', name: 'Julien Moreau' };
const SARAH = { id: '6b1f0c1e-8a57-4e0b-9d5f-3f6c2b9a1d02', name: 'Sarah Benali' };

/** The server's part: « Prénom Nom » or « Nom Prénom ». */
function answer(url: string) {
  const search = (new URL(url, 'http://localhost').searchParams.get('search') ?? '').toLowerCase();
  const found = [JULIEN, SARAH].filter((t) => {
    const [first, last] = t.name.toLowerCase().split(' ');
    return `${first} ${last} ${first}`.includes(search);
  });
  return new Response(JSON.stringify(found), { status: 200, headers: { 'content-type': 'application/json' } });
}

function Screen({ onChange }: { onChange: (technician: TechnicianOption | null) => void }) {
  const [technicianId, setTechnicianId] = useState('');
  return (
    <Field id="technician" label="Technicien">
      <TechnicianPicker
        source="shipments"
        value={technicianId}
        onChange={(technician) => {
          setTechnicianId(technician?.id ?? '');
          onChange(technician);
        }}
        placeholder="Tous les techniciens"
      />
    </Field>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TechnicianPicker', () => {
  it('asks nothing before it opens, then searches the typed text on the server and gives the chosen technician', async () => {
    const fetchMock = vi.fn(async (url: string) => answer(url));
    vi.stubGlobal('fetch', fetchMock);
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Screen onChange={onChange} />
      </QueryClientProvider>,
    );
    const input = screen.getByRole('combobox', { name: 'Technicien' });
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(input, 'Moreau Julien');
    // The first names (asked on opening) stay shown, dimmed, until the search answers.
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    const option = screen.getByRole('option', { name: 'Julien Moreau' });
    expect(fetchMock).toHaveBeenLastCalledWith('/api/shipments/admin/technicians?search=Moreau+Julien&limit=20', expect.anything());
    // Debounced: not one request per key.
    expect(fetchMock.mock.calls.length).toBeLessThanOrEqual(3);

    await user.click(option);
    expect(onChange).toHaveBeenLastCalledWith(JULIEN);
    expect(input).toHaveValue('Julien Moreau');

    await user.click(screen.getByRole('button', { name: 'Effacer la sélection' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(input).toHaveValue('');
  });

  it('says when no technician matches', async () => {
    vi.stubGlobal('fetch', vi.fn(async (url: string) => answer(url)));
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Screen onChange={() => undefined} />
      </QueryClientProvider>,
    );
    await user.type(screen.getByRole('combobox', { name: 'Technicien' }), 'Personne');
    expect(await screen.findByText('Aucun technicien trouvé')).toBeInTheDocument();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
  });
});
