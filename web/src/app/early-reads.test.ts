import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAvailableLots } from '@/features/find-missions/api/get-available-lots';
import { api } from '@/lib/api-client';
import { startEarlyReads } from './early-reads';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });

function stubServer() {
  const fetchMock = vi.fn((path: string) => {
    if (path === '/api/auth/me') return Promise.resolve(json({ user: { id: 'u1' }, technician: { id: 't1' } }));
    if (path.startsWith('/api/mission-batches/available-for-application')) return Promise.resolve(json([{ id: 'lot' }], { 'X-Total-Count': '1' }));
    return Promise.resolve(json({}));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('early reads (first content)', () => {
  it('asks for the session and then the first page of lots once, and the api client takes those answers', async () => {
    const fetchMock = stubServer();
    startEarlyReads({ pathname: '/technician/dashboard', search: '?tab=find-missions' });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/mission-batches/available-for-application?technicianId=t1&limit=20&offset=0');

    expect(await api.get('/api/auth/me')).toMatchObject({ technician: { id: 't1' } });
    const page = await getAvailableLots({ technicianId: 't1', filters: { department: '', tag: '', search: '', sort: '', radius: '' }, offset: 0 });
    expect(page).toEqual({ items: [{ id: 'lot' }], total: 1, capped: false });
    expect(fetchMock).toHaveBeenCalledTimes(2);

    // Taken once: the next read of the same address asks the server again.
    await api.get('/api/auth/me');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('asks for the lots at once when the browser remembers the technician', async () => {
    const fetchMock = stubServer();
    localStorage.setItem('maillon:session', JSON.stringify({ user: { id: 'u1' }, technician: { id: 't9' } }));
    try {
      startEarlyReads({ pathname: '/technician/dashboard', search: '' });
      expect(fetchMock.mock.calls.map((call) => call[0])).toEqual([
        '/api/auth/me',
        '/api/mission-batches/available-for-application?technicianId=t9&limit=20&offset=0',
      ]);
      await api.get('/api/auth/me');
      await getAvailableLots({ technicianId: 't9', filters: { department: '', tag: '', search: '', sort: '', radius: '' }, offset: 0 });
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      localStorage.clear();
    }
  });

  it('reads nothing early outside the dashboards, and no lots on another tab', async () => {
    const fetchMock = stubServer();
    startEarlyReads({ pathname: '/technician/login', search: '' });
    expect(fetchMock).not.toHaveBeenCalled();
    startEarlyReads({ pathname: '/technician/dashboard', search: '?tab=revenue' });
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await api.get('/api/auth/me');
  });
});
