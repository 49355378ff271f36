import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Pager } from './pager';

describe('Pager', () => {
  it('counts the pages of an exact total and closes « Suivant » on the last one', () => {
    const onChange = vi.fn();
    const { rerender } = render(<Pager offset={0} limit={20} total={45} onChange={onChange} label="Pages" />);
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('Page 1 sur 3');
    expect(screen.getByRole('button', { name: /Précédent/ })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    expect(onChange).toHaveBeenCalledWith(20);
    rerender(<Pager offset={40} limit={20} total={45} onChange={onChange} label="Pages" />);
    expect(screen.getByRole('navigation')).toHaveTextContent('Page 3 sur 3');
    expect(screen.getByRole('button', { name: /Suivant/ })).toBeDisabled();
  });

  it('says « plus de » for a capped total and keeps « Suivant » open past it (decision 042)', () => {
    const onChange = vi.fn();
    const { rerender } = render(<Pager offset={980} limit={20} total={1000} capped onChange={onChange} />);
    expect(screen.getByRole('navigation')).toHaveTextContent('Page 50 sur plus de 50');
    fireEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    expect(onChange).toHaveBeenCalledWith(1000);
    rerender(<Pager offset={20_000} limit={20} total={1000} capped onChange={onChange} />);
    // French digit groups (a narrow no-break space, which the matcher reads as a space).
    expect(screen.getByRole('navigation')).toHaveTextContent('Page 1 001 sur plus de 50');
    expect(screen.getByRole('button', { name: /Suivant/ })).toBeEnabled();
  });

  it('is absent when one page holds the whole list', () => {
    render(<Pager offset={0} limit={20} total={20} onChange={() => undefined} />);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
