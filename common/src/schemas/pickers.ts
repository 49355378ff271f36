import { z } from 'zod';

/** The suggestions a search-as-you-type picker asks for at a time, and the most the server gives (decision 040). */
export const PICKER_LIMIT_DEFAULT = 20;
export const PICKER_LIMIT_MAX = 50;

/**
 * The query fields of a picker's suggestions: the text typed and how many, `noun` (« techniciens », « lots ») naming
 * them in the message. A picker never receives the whole list.
 */
export function pickerQueryFields(noun: string) {
  const limitMessage = `Nombre de ${noun} invalide (entre 1 et ${PICKER_LIMIT_MAX})`;
  return {
    search: z.string().trim().max(200, 'Recherche trop longue (200 caractères maximum)').optional(),
    limit: z.coerce
      .number({ error: limitMessage })
      .int(limitMessage)
      .min(1, limitMessage)
      .max(PICKER_LIMIT_MAX, limitMessage)
      .default(PICKER_LIMIT_DEFAULT),
  };
}
