import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { RouteErrorBoundary } from './route-error-boundary';

function Broken(): never {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/lots-abc123.js');
}

describe('RouteErrorBoundary', () => {
  it('says in French that the page failed, offers a reload, and keeps the browser’s text under « Détails techniques »', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    try {
      render(
        <MemoryRouter>
          <RouteErrorBoundary>
            <Broken />
          </RouteErrorBoundary>
        </MemoryRouter>,
      );
      expect(screen.getByRole('alert')).toContainElement(screen.getByRole('heading', { name: 'Cette page n’a pas pu s’afficher' }));
      expect(screen.getByText(/^Rechargez la page/)).not.toHaveTextContent('Failed to fetch');
      expect(screen.getByText('Détails techniques')).toBeVisible();
      expect(screen.getByText(/Failed to fetch dynamically imported module/)).not.toBeVisible();
      await userEvent.setup().click(screen.getByRole('button', { name: 'Recharger la page' }));
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
      quiet.mockRestore();
    }
  });
});
