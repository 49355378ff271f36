import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from './api-client';
import { errorMessage } from './error-message';

describe('errorMessage', () => {
  it('gives the server’s French message, never its raw answer', () => {
    const body = JSON.stringify({ message: 'Ressource introuvable', code: 'NOT_FOUND', requestId: 'r-1' });
    expect(errorMessage(new ApiError(404, body, 'Not Found'))).toBe('Ressource introuvable');
    expect(errorMessage(new ApiError(502, '<html><body>Bad Gateway</body></html>', 'Bad Gateway'))).toBe(
      'Le serveur a rencontré une erreur : réessayez dans un instant.',
    );
    expect(errorMessage(new ApiError(400, 'pas du JSON', 'Bad Request'))).toBe('Une erreur est survenue');
    expect(errorMessage(new ApiError(400, '', 'Bad Request'), 'Rapport refusé')).toBe('Rapport refusé');
  });

  it('keeps the text of errors written for users, and a fallback for anything else', () => {
    expect(errorMessage(new NetworkError())).toBe('Erreur de connexion au serveur');
    expect(errorMessage(new Error('Hors de l’espace technicien'))).toBe('Hors de l’espace technicien');
    expect(errorMessage('boom')).toBe('Une erreur est survenue');
    expect(errorMessage(undefined, 'Chargement impossible')).toBe('Chargement impossible');
  });
});
