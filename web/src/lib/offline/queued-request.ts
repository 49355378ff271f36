import type { QueryKey } from '@tanstack/react-query';
import { ApiError, NetworkError, sendWrite } from '@/lib/api-client';
import { readConfirmedSession, readStoredSession } from '@/lib/session';

/** A multipart part: text, or a file kept as a Blob (IndexedDB stores Blobs as they are). */
export type FormPart = { name: string; value: string } | { name: string; file: Blob; fileName: string };

/**
 * A change kept on the phone until the server has it. Plain data only, so that it survives a reload and a new build:
 * the queue replays HTTP requests, and needs no feature code to do it (decision 023).
 */
export interface QueuedRequest {
  /** Sent as the Idempotency-Key header: the server applies the change once however often it is sent. */
  key: string;
  /** The account that made the change: it is never sent under another one. */
  userId: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  json?: Record<string, unknown>;
  form?: FormPart[];
  /** What the technician changed, in French, for the lists (« Effectué — Piscine municipale »). */
  label: string;
  /** What it changes (`mission:<id>`, `shipment:<id>`…): screens mark it « en attente ». */
  target: string;
  /** Requests of one scope are sent one after another, in the order they were made (TanStack Query's mutation scope). */
  scope: string;
  /** A newer request with the same value replaces this one while it has not started (full-state writes). */
  replaces?: string;
  /**
   * Waiting requests whose `replaces` is one of these are dropped when this one is made: it carries everything they
   * would have sent (the complete visit report over its drafts), so they would only be sent, or refused, for nothing.
   */
  supersedes?: string[];
  /**
   * What the change means for the screens when its body does not say it plainly (a complete visit report:
   * `{ isCompleted: true }`, the device shown Effectué until the server's data says so).
   */
  shows?: Record<string, unknown>;
  /** Query keys refreshed once it has been delivered or refused. */
  invalidate: QueryKey[];
  queuedAt: number;
}

/** The change is waiting for this account's session (another account is signed in on this page). */
export class SessionMismatchError extends Error {
  constructor() {
    super('Modification d’un autre compte');
    this.name = 'SessionMismatchError';
  }
}

/** What the server said when it refused a change, kept with the change (also after a reload). */
export interface Refusal {
  name: 'Refusal';
  status: number;
  message: string;
}

/** Failures worth trying again later: no network, the server or the session away, the same key still running. */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof SessionMismatchError) return true;
  if (error instanceof ApiError) {
    return error.status >= 500 || error.status === 401 || error.status === 408 || error.status === 429 || error.code === 'IDEMPOTENCY_IN_PROGRESS';
  }
  return false;
}

/** The refusal to show for an error (a live ApiError, or the plain copy read back from IndexedDB). */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof ApiError) return { name: 'Refusal', status: error.status, message: error.userMessage ?? 'Le serveur a refusé cette modification' };
  const plain = error as Partial<Refusal> | null;
  if (plain && typeof plain.status === 'number' && typeof plain.message === 'string') return { name: 'Refusal', status: plain.status, message: plain.message };
  return { name: 'Refusal', status: 0, message: 'Le serveur a refusé cette modification' };
}

export function formDataOf(parts: FormPart[]): FormData {
  const form = new FormData();
  for (const part of parts) {
    if ('file' in part) form.append(part.name, part.file, part.fileName);
    else form.append(part.name, part.value);
  }
  return form;
}

/** FormData → parts that IndexedDB can keep (files stay Blobs). */
export function formPartsOf(form: FormData): FormPart[] {
  const parts: FormPart[] = [];
  form.forEach((value, name) => {
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, file: value, fileName: value.name });
  });
  return parts;
}

/** Sends one queued change with its Idempotency-Key (a new FormData each time for a multipart one). */
export function sendQueuedRequest(request: QueuedRequest): Promise<unknown> {
  const session = readConfirmedSession() ?? readStoredSession();
  if (session && session.user.id !== request.userId) return Promise.reject(new SessionMismatchError());
  const body = request.form ? formDataOf(request.form) : (request.json ?? {});
  return sendWrite(request.method, request.url, body, { 'Idempotency-Key': request.key });
}
