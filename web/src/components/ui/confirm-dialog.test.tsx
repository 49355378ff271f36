import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';

function renderDialog(onConfirm: () => Promise<unknown> | void) {
  return render(
    <ConfirmDialog
      trigger={<Button variant="outline">Supprimer la ressource</Button>}
      title="Supprimer cette ressource ?"
      description="Elle disparaît de la formation."
      confirmLabel="Supprimer"
      onConfirm={onConfirm}
    />,
  );
}

// The dialog's code loads on demand (decision 017): what the user sees and can do is the same as before.
describe('ConfirmDialog', () => {
  it('asks first, runs the action on confirmation, then closes and gives the focus back to its trigger', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn().mockResolvedValue(undefined);
    renderDialog(onConfirm);
    const trigger = screen.getByRole('button', { name: 'Supprimer la ressource' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'dialog');
    expect(trigger).toHaveAttribute('type', 'button');

    await user.click(trigger);
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer cette ressource ?' });
    expect(dialog).toHaveTextContent('Elle disparaît de la formation.');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(onConfirm).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Supprimer' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(trigger).toHaveFocus();
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
  });

  it('does nothing when cancelled, and opens again', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderDialog(onConfirm);
    const trigger = screen.getByRole('button', { name: 'Supprimer la ressource' });
    await user.click(trigger);
    await user.click(await screen.findByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();
    expect(trigger).toHaveFocus();

    await user.click(trigger);
    expect(await screen.findByRole('alertdialog', { name: 'Supprimer cette ressource ?' })).toBeVisible();
  });
});
