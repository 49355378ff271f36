import { findErrorCode } from '../lib/error-chain';
import type { Db } from './client';

/**
 * PostgreSQL's answers that mean « run the whole transaction again »: a deadlock it broke (40P01) or a serialization
 * failure (40001). Both roll the transaction back entirely, so running its function again is safe.
 */
const RETRYABLE_CODES = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * Makes `db.transaction` run its function again (up to 3 times, after a short random pause) when PostgreSQL aborted it
 * for a deadlock or a serialization failure. Several instances and the row-count triggers mean two transactions can
 * lock the same rows in opposite orders; the user should get the result, not a 500. Savepoints (`tx.transaction`) are
 * untouched: only the outermost transaction can be retried. A function with effects outside the database (a stored
 * object) may run twice; such effects are keyed or swept (orphan files) already.
 */
export function retryTransactions(db: Db): Db {
  const transaction = db.transaction.bind(db);
  const retrying: Db['transaction'] = async (run, config) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await transaction(run, config);
      } catch (error) {
        if (attempt >= ATTEMPTS || !findErrorCode(error, (code) => RETRYABLE_CODES.has(code))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
      }
    }
  };
  db.transaction = retrying;
  return db;
}
