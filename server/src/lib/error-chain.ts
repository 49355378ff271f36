/** One error of a chain: a driver error, or what wraps it (Drizzle puts pg's error in `cause`). */
export interface ChainedError {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The error and its causes, outermost first, at most four deep. */
export function* errorChain(error: unknown): Generator<ChainedError> {
  for (let current = error as ChainedError | undefined, depth = 0; current && depth < 4; depth += 1) {
    yield current;
    current = current.cause as ChainedError | undefined;
  }
}

/** The first code (SQLSTATE, system error) in the chain that `matches`, if any. */
export function findErrorCode(error: unknown, matches: (code: string) => boolean): string | undefined {
  for (const link of errorChain(error)) {
    if (typeof link.code === 'string' && matches(link.code)) return link.code;
  }
  return undefined;
}
