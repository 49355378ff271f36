import { takeEarlyRead } from './early-reads';

/** Raised for any non-2xx answer: text "status: body" (spec §8), plus the server's French message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly userMessage: string | undefined;
  readonly fields: Record<string, string> | undefined;

  constructor(status: number, body: string, statusText: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    try {
      const parsed = JSON.parse(body) as { message?: string; code?: string; fields?: Record<string, string> };
      this.userMessage = typeof parsed.message === 'string' ? parsed.message : undefined;
      this.code = parsed.code;
      this.fields = parsed.fields;
    } catch {
      this.userMessage = undefined;
      this.code = undefined;
      this.fields = undefined;
    }
  }
}

export class NetworkError extends Error {
  constructor() {
    super('Erreur de connexion au serveur');
    this.name = 'NetworkError';
  }
}

type Body = Record<string, unknown> | unknown[] | FormData | undefined;

async function request<T>(method: string, path: string, body?: Body, init?: RequestInit, extraHeaders?: Record<string, string>): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    const early = method === 'GET' && !init ? takeEarlyRead(path) : undefined;
    response = await (early ?? fetch(path, { method, headers, body: payload, credentials: 'include', ...init }));
  } catch {
    throw new NetworkError();
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new ApiError(response.status, text, response.statusText);
  }
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? await response.json() : await response.text()) as T;
}

/** A write with extra headers (the offline queue's Idempotency-Key, lib/offline). */
export function sendWrite<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: Body, headers: Record<string, string>): Promise<T> {
  return request<T>(method, path, body, undefined, headers);
}

export const api = {
  get: <T>(path: string, init?: RequestInit) => request<T>('GET', path, undefined, init),
  post: <T>(path: string, body?: Body) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: Body) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body?: Body) => request<T>('PATCH', path, body ?? {}),
  delete: <T>(path: string, body?: Body) => request<T>('DELETE', path, body),
};

/**
 * A list read that also returns the X-Total-Count header (server-side paging). `capped`: a search past the server's cap
 * (X-Total-Capped, decision 042) — there are more than `total` items.
 */
export async function getPage<T>(path: string): Promise<{ items: T[]; total: number; capped: boolean }> {
  let response: Response;
  try {
    response = await (takeEarlyRead(path) ?? fetch(path, { credentials: 'include', headers: { Accept: 'application/json' } }));
  } catch {
    throw new NetworkError();
  }
  if (!response.ok) throw new ApiError(response.status, await response.text().catch(() => ''), response.statusText);
  const items = (await response.json()) as T[];
  return { items, total: Number(response.headers.get('X-Total-Count') ?? items.length), capped: response.headers.get('X-Total-Capped') === 'true' };
}

/** Query string from defined, non-empty values. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
