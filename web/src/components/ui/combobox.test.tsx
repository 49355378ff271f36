import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Combobox } from './combobox';
import { Field } from './field';

interface Person {
  id: string;
  name: string;
}

const PEOPLE: Person[] = [
  { id: '1', name: 'Julien Moreau' },
  { id: '2', name: 'Sarah Benali' },
  { id: '3', name: 'Anne Morel' },
];

/** A screen's use: the options filtered by the query (the server's part), the choice kept by the screen. */
function Harness({ onSelect = () => undefined, loading = false }: { onSelect?: (person: Person | null) => void; loading?: boolean }) {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Person | null>(null);
  const options = PEOPLE.filter((p) => p.name.toLowerCase().includes(query.trim().toLowerCase()));
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <Field id="technician" label="Technicien">
        <Combobox
          options={loading ? [] : options}
          optionKey={(p) => p.id}
          optionLabel={(p) => p.name}
          selected={selected}
          onSelect={(person) => {
            setSelected(person);
            onSelect(person);
          }}
          onQueryChange={setQuery}
          listLabel="Suggestions"
          clearLabel="Effacer la sélection"
          placeholder="Tous les techniciens"
          loading={loading}
          emptyText="Aucun technicien trouvé"
        />
      </Field>
      <button type="button">Ailleurs</button>
    </form>
  );
}

const activeOption = (input: HTMLElement) => {
  const id = input.getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};

describe('Combobox', () => {
  it('is the labelled input of its Field, closed and pointing at its list', () => {
    render(<Harness />);
    const input = screen.getByLabelText('Technicien');
    expect(input).toBe(screen.getByRole('combobox', { name: 'Technicien' }));
    expect(input).toHaveAttribute('aria-autocomplete', 'list');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveAttribute('placeholder', 'Tous les techniciens');
    expect(document.getElementById(input.getAttribute('aria-controls')!)).toHaveAttribute('role', 'listbox');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('chooses with the keyboard: arrows move and wrap, Home / End jump, Enter chooses and closes', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const input = screen.getByRole('combobox', { name: 'Technicien' });

    await user.type(input, 'mor');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Julien Moreau', 'Anne Morel']);
    expect(input).not.toHaveAttribute('aria-activedescendant');

    await user.keyboard('{ArrowDown}');
    expect(activeOption(input)).toHaveTextContent('Julien Moreau');
    expect(activeOption(input)).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(activeOption(input)).toHaveTextContent('Anne Morel');
    await user.keyboard('{ArrowDown}');
    expect(activeOption(input)).toHaveTextContent('Julien Moreau');
    await user.keyboard('{ArrowUp}');
    expect(activeOption(input)).toHaveTextContent('Anne Morel');
    await user.keyboard('{Home}');
    expect(activeOption(input)).toHaveTextContent('Julien Moreau');
    await user.keyboard('{End}');
    expect(activeOption(input)).toHaveTextContent('Anne Morel');

    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith({ id: '3', name: 'Anne Morel' });
    expect(input).toHaveValue('Anne Morel');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    expect(input).toHaveFocus();

    // Opened again without typing: every option, the chosen one highlighted.
    await user.keyboard('{ArrowDown}');
    expect(screen.getAllByRole('option')).toHaveLength(3);
    expect(activeOption(input)).toHaveTextContent('Anne Morel');
  });

  it('chooses with a click; leaving without choosing puts the chosen name back', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const input = screen.getByRole('combobox', { name: 'Technicien' });

    await user.click(input);
    expect(screen.getAllByRole('option')).toHaveLength(3);
    await user.click(screen.getByRole('option', { name: 'Sarah Benali' }));
    expect(onSelect).toHaveBeenLastCalledWith({ id: '2', name: 'Sarah Benali' });
    expect(input).toHaveValue('Sarah Benali');
    expect(input).toHaveFocus();
    expect(screen.queryByRole('listbox')).toBeNull();

    await user.clear(input);
    await user.type(input, 'jul');
    await user.click(screen.getByRole('button', { name: 'Ailleurs' }));
    expect(input).toHaveValue('Sarah Benali');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(onSelect).toHaveBeenCalledTimes(1);
  });

  it('Escape closes the list, then clears the choice; the clear button clears it too', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const input = screen.getByRole('combobox', { name: 'Technicien' });

    await user.type(input, 'sarah{ArrowDown}{Enter}');
    expect(input).toHaveValue('Sarah Benali');
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveValue('Sarah Benali');
    await user.keyboard('{Escape}');
    expect(input).toHaveValue('');
    expect(onSelect).toHaveBeenLastCalledWith(null);

    await user.type(input, 'julien{ArrowDown}{Enter}');
    expect(input).toHaveValue('Julien Moreau');
    await user.click(screen.getByRole('button', { name: 'Effacer la sélection' }));
    expect(onSelect).toHaveBeenLastCalledWith(null);
    expect(input).toHaveValue('');
    expect(input).toHaveAttribute('placeholder', 'Tous les techniciens');
    expect(input).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Effacer la sélection' })).toBeNull();
  });

  it('says when nothing is found, and while the search runs', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Technicien' });

    await user.type(input, 'zzz');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent('Aucun technicien trouvé');
    // Enter with nothing highlighted chooses nothing and keeps the list.
    await user.keyboard('{Enter}');
    expect(input).toHaveAttribute('aria-expanded', 'true');

    rerender(<Harness loading />);
    expect(screen.getByRole('status')).toHaveTextContent('Recherche…');
  });
});
