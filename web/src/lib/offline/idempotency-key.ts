/**
 * A new Idempotency-Key: 128 random bits. crypto.getRandomValues works on a plain-HTTP address too, where
 * crypto.randomUUID does not exist (it needs a secure context).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `k-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
