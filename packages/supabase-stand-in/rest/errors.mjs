// @ts-check
// PostgREST's error bodies (src/PostgREST/Error.hs): `{ code, details, hint, message }` with the
// status its error type maps to; a Postgres error's status follows its SQLSTATE and the role.
import { HttpError } from '../http.mjs';
import { isPgError, pgErrorBody, statusForPgCode } from '../pg-errors.mjs';

/**
 * The body supabase-js reads into a PostgrestError; PostgREST sends null for an empty detail or hint.
 * @typedef {{
 *   code: import('@supabase/postgrest-js').PostgrestError['code'],
 *   details: import('@supabase/postgrest-js').PostgrestError['details'] | null,
 *   hint: import('@supabase/postgrest-js').PostgrestError['hint'] | null,
 *   message: import('@supabase/postgrest-js').PostgrestError['message'],
 * }} RestErrorBody
 */

/**
 * A PostgREST-shaped 4xx.
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {string | null} [details]
 * @param {string | null} [hint]
 */
export function restError(status, code, message, details = null, hint = null) {
  /** @type {RestErrorBody} */
  const body = { code, details, hint, message };
  return new HttpError(status, body);
}

/**
 * PGRST116: the object media type was asked for and `n` rows (not one) came back.
 * @param {number} n
 */
export function singleError(n) {
  return restError(
    406,
    'PGRST116',
    'JSON object requested, multiple (or no) rows returned',
    `The result contains ${n} rows`,
  );
}

/**
 * A Postgres error as PostgREST answers it (status by SQLSTATE and role); anything else as is.
 * @param {unknown} err
 * @param {import('../db.mjs').Claims | null | undefined} claims
 */
export function asRestError(err, claims) {
  if (!isPgError(err)) return err;
  const authed = Boolean(claims && claims.role && claims.role !== 'anon');
  return new HttpError(statusForPgCode(err.code, authed), pgErrorBody(err));
}
