// @vitest-environment node
// Node's own Blob, FormData and structured clone (IndexedDB keeps Blobs); fake-indexeddb stands for the browser's store.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { storeSession } from '@/lib/session';
import { persistQueryClient, restoreQueryClient, snapshotOf } from './persister';
import { enqueueRequest, QUEUE_MUTATION_KEY, queueMutations, registerQueue, type QueuedRequestSpec } from './queue';
import { formPartsOf, refusalOf } from './queued-request';

const USER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const session = (id: string) => ({ user: { id, email: 'a@b.fr', role: 'technician' }, technician: null }) as never;
const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';

function newClient() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  registerQueue(client);
  client.mount();
  return client;
}

/** The report of issue 16 will look like this: fields and files, sent as multipart. */
function multipartSpec(): QueuedRequestSpec {
  const form = new FormData();
  form.append('reference', 'F-2026-001');
  form.append('invoice_file', new File([PDF], 'facture.pdf', { type: 'application/pdf' }));
  return {
    method: 'POST',
    url: '/api/invoice/33333333-3333-4333-8333-333333333333/submit',
    form: formPartsOf(form),
    label: 'Facture F-2026-001',
    target: 'invoice:3333',
    scope: 'invoice:3333',
    invalidate: [['invoices']],
  };
}

function fastRetries(client: QueryClient) {
  client.setMutationDefaults(QUEUE_MUTATION_KEY, { ...client.getMutationDefaults(QUEUE_MUTATION_KEY), retryDelay: 5 });
}

async function until(check: () => boolean, ms = 2000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timeout');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeEach(() => {
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  storeSession(session(USER));
});
afterEach(() => {
  onlineManager.setOnline(true);
  vi.unstubAllGlobals();
});

describe('offline queue', () => {
  it('keeps a multipart change with its file in IndexedDB across a reload, then sends it once with its Idempotency-Key', async () => {
    onlineManager.setOnline(false);
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);

    // The phone is offline: the change waits, and is saved at once.
    const before = newClient();
    const stop = persistQueryClient(before, USER);
    void enqueueRequest(before, USER, multipartSpec());
    expect(queueMutations(before)).toHaveLength(1);
    expect(queueMutations(before)[0]!.state.isPaused).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    before.unmount();
    expect(fetch).not.toHaveBeenCalled();

    // A new page (reload, phone restart): the queue comes back from IndexedDB, the file as a Blob.
    const after = newClient();
    expect(await restoreQueryClient(after, USER)).toBe(true);
    const [restored] = queueMutations(after);
    expect(restored?.state.status).toBe('pending');
    expect(restored?.state.isPaused).toBe(true);
    const part = restored!.state.variables!.form!.find((p) => p.name === 'invoice_file');
    expect(part && 'file' in part && (await part.file.text())).toBe(PDF);
    // Another account never sees it.
    expect(await restoreQueryClient(newClient(), OTHER)).toBe(false);

    // The network is back: it is sent, once, as multipart, with its key.
    onlineManager.setOnline(true);
    await after.resumePausedMutations();
    await until(() => fetch.mock.calls.length > 0 && queueMutations(after).every((m) => m.state.status === 'success'));
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/invoice/33333333-3333-4333-8333-333333333333/submit');
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toBe(restored!.state.variables!.key);
    const body = init.body as FormData;
    expect(body.get('reference')).toBe('F-2026-001');
    const file = body.get('invoice_file') as File;
    expect(file.name).toBe('facture.pdf');
    expect(await file.text()).toBe(PDF);
  });

  it('sends the changes of one scope in order, retries after a network failure, and keeps a refusal with its French reason', async () => {
    const sent: string[] = [];
    let failOnce = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body)) as { step: string };
        if (failOnce) {
          failOnce = false;
          throw new TypeError('Failed to fetch');
        }
        sent.push(body.step);
        if (body.step === 'refusée') return new Response(JSON.stringify({ message: 'Ce lot est terminé', code: 'INVALID_TRANSITION' }), { status: 409 });
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const client = newClient();
    fastRetries(client);
    const spec = (step: string): QueuedRequestSpec => ({ method: 'PATCH', url: '/api/x', json: { step }, label: step, target: 't', scope: 'device-1', invalidate: [] });
    const results = ['un', 'deux', 'refusée', 'quatre'].map((step) => enqueueRequest(client, USER, spec(step)).then(() => 'ok', (e: unknown) => refusalOf(e).message));
    expect(await Promise.all(results)).toEqual(['ok', 'ok', 'Ce lot est terminé', 'ok']);
    expect(sent).toEqual(['un', 'deux', 'refusée', 'quatre']);
    const refused = queueMutations(client).find((m) => m.state.status === 'error');
    // Saved as plain data, readable after a reload.
    const saved = snapshotOf(client).mutations.find((m) => m.state.status === 'error');
    expect(refusalOf(saved?.state.error)).toEqual({ name: 'Refusal', status: 409, message: 'Ce lot est terminé' });
    expect(refused).toBeDefined();
  });

  it('never sends a change under another account: it waits for its own', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    storeSession(session(OTHER));
    const client = newClient();
    fastRetries(client);
    void enqueueRequest(client, USER, { method: 'PUT', url: '/api/y', json: {}, label: 'x', target: 't', scope: 's', invalidate: [] });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(fetch).not.toHaveBeenCalled();
    expect(queueMutations(client)[0]!.state.status).toBe('pending');
    storeSession(session(USER));
    await until(() => fetch.mock.calls.length === 1);
  });

  it('a newer value replaces a waiting one of the same field', () => {
    onlineManager.setOnline(false);
    const client = newClient();
    const spec = (value: boolean): QueuedRequestSpec => ({ method: 'PATCH', url: '/api/z', json: { isCompleted: value }, label: 'x', target: 't', scope: 's', replaces: 's:done', invalidate: [] });
    void enqueueRequest(client, USER, spec(true));
    void enqueueRequest(client, USER, spec(false));
    const waiting = queueMutations(client);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.state.variables!.json).toEqual({ isCompleted: false });
  });

  it('a complete write drops the waiting drafts it supersedes, and only those: the draft is never sent nor refused', async () => {
    onlineManager.setOnline(false);
    const fetch = vi.fn(async (url: string) =>
      url === '/api/report'
        ? new Response(JSON.stringify({ message: 'Ce lot est terminé', code: 'INVALID_TRANSITION' }), { status: 409 })
        : new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const client = newClient();
    const mine = { method: 'PUT' as const, label: 'x', target: 'report:m', scope: 'report:m', invalidate: [] };
    const other = { ...mine, target: 'report:o', scope: 'report:o' };
    void enqueueRequest(client, USER, { ...mine, url: '/api/draft', json: { step: 1 }, replaces: 'report:m:report-draft' });
    void enqueueRequest(client, USER, { ...mine, method: 'POST', url: '/api/photo', json: { photo: 1 } });
    void enqueueRequest(client, USER, { ...other, url: '/api/other-draft', json: { step: 1 }, replaces: 'report:o:report-draft' });
    const report = enqueueRequest(client, USER, { ...mine, url: '/api/report', json: { step: 2 }, replaces: 'report:m:report', supersedes: ['report:m:report-draft'] });
    expect(queueMutations(client).map((m) => m.state.variables!.url)).toEqual(['/api/photo', '/api/other-draft', '/api/report']);

    onlineManager.setOnline(true);
    await client.resumePausedMutations();
    await expect(report).rejects.toThrow();
    await until(() => queueMutations(client).every((m) => m.state.status !== 'pending'));
    const sent = fetch.mock.calls.map((call) => (call as unknown as [string])[0]);
    expect(sent.filter((url) => url !== '/api/other-draft')).toEqual(['/api/photo', '/api/report']);
    expect(sent).toContain('/api/other-draft');
    // One refusal to show for this device: the report's.
    expect(queueMutations(client).filter((m) => m.state.status === 'error').map((m) => m.state.variables!.url)).toEqual(['/api/report']);
  });
});
