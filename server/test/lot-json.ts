import { DEFAULT_LOT_DESCRIPTION } from '@maillon/common/constants';

/**
 * The rules the JSON PostgreSQL writes for the lists follows (maillon_lot_description and maillon_json_time, migration
 * 0036), written in JavaScript as the server wrote them before: the reference the tests compare that JSON with.
 */

/** The description a lot shows: its own, or the default text when it is blank by JavaScript's `trim`. */
export function lotDescription(description: string | null): string {
  return description?.trim() ? description : DEFAULT_LOT_DESCRIPTION;
}

/** A time as the API writes it: ISO 8601 UTC to the millisecond, as Date has it (null stays null). */
export const isoTime = (time: Date | null): string | null => time?.toISOString() ?? null;
