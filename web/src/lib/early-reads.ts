/**
 * Reads started by the entry script before the page's code has arrived (first content, issue 10): the api client takes
 * such a read instead of asking again, once, within a few seconds of its start (after that it asks afresh).
 */
const MAX_AGE_MS = 5_000;
const pending = new Map<string, { response: Promise<Response>; startedAt: number }>();

export function startEarlyRead(path: string): Promise<Response> {
  const response = fetch(path, { credentials: 'include', headers: { Accept: 'application/json' } });
  // Nobody may take it: a failure must not surface as an unhandled rejection.
  response.catch(() => undefined);
  pending.set(path, { response, startedAt: performance.now() });
  return response;
}

export function takeEarlyRead(path: string): Promise<Response> | undefined {
  const read = pending.get(path);
  if (!read) return undefined;
  pending.delete(path);
  return performance.now() - read.startedAt <= MAX_AGE_MS ? read.response : undefined;
}
