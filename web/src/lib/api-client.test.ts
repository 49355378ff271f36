import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, NetworkError } from './api-client';

afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
  it('raises "status: body" errors carrying the server message (spec §8)', async () => {
    const body = JSON.stringify({ message: 'Déjà assigné', code: 'ALREADY_ASSIGNED' });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(body, { status: 409, statusText: 'Conflict' })));
    const error = await api.post('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`409: ${body}`);
    expect((error as ApiError).userMessage).toBe('Déjà assigné');
  });

  it('uses the status text when the body is empty', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('', { status: 502, statusText: 'Bad Gateway' })));
    const error = await api.get('/api/x').catch((e: unknown) => e);
    expect((error as ApiError).message).toBe('502: Bad Gateway');
  });

  it('turns a network failure into "Erreur de connexion au serveur"', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await api.get('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('Erreur de connexion au serveur');
  });
});
