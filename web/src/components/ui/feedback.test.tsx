import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ApiError } from '@/lib/api-client';
import { ErrorState } from './feedback';

describe('ErrorState', () => {
  it('shows the server’s French message, not its raw answer', () => {
    const body = JSON.stringify({ message: 'Ressource introuvable', code: 'NOT_FOUND', requestId: 'r-1' });
    render(<ErrorState error={new ApiError(404, body, 'Not Found')} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Ressource introuvable$/);
  });

  it('says the server failed without showing a proxy’s page', () => {
    render(<ErrorState error={new ApiError(502, '<html>Bad Gateway</html>', 'Bad Gateway')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Le serveur a rencontré une erreur : réessayez dans un instant.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('html');
  });
});
