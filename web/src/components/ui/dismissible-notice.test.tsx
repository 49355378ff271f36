import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DismissibleNotice } from './dismissible-notice';

afterEach(() => localStorage.clear());

describe('DismissibleNotice', () => {
  it('closes for good: hidden again after a new render', async () => {
    const { unmount } = render(<DismissibleNotice storageKey="test-notice">Montants hors taxes</DismissibleNotice>);
    expect(screen.getByRole('note')).toHaveTextContent('Montants hors taxes');
    await userEvent.click(screen.getByRole('button', { name: 'Fermer l’information' }));
    expect(screen.queryByRole('note')).toBeNull();
    unmount();
    render(<DismissibleNotice storageKey="test-notice">Montants hors taxes</DismissibleNotice>);
    expect(screen.queryByRole('note')).toBeNull();
    expect(localStorage.getItem('maillon:test-notice')).toBe('1');
  });
});
