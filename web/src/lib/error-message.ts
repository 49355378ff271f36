/**
 * What to tell the user about a failed call: the server's French message when it gave one (ApiError.userMessage),
 * never its raw answer (`404: {"message":…}`, a proxy's HTML page); the error's own text for errors written for users
 * (NetworkError, « Hors de l’espace technicien »).
 */
export function errorMessage(error: unknown, fallback = 'Une erreur est survenue'): string {
  if (!(error instanceof Error)) return fallback;
  const { userMessage, status } = error as Error & { userMessage?: string; status?: unknown };
  if (userMessage) return userMessage;
  if (typeof status === 'number') return status >= 500 ? 'Le serveur a rencontré une erreur : réessayez dans un instant.' : fallback;
  return error.message || fallback;
}
