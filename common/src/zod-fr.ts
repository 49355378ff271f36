import { z } from 'zod';

/** French default messages for every zod schema (server validation and forms alike). */
export function useFrenchZodMessages(): void {
  z.config(z.locales.fr());
}
