// @ts-check
// Maps Postgres errors to PostgREST's status codes and JSON error shape, so supabase-js gets
// the same `{ code, details, hint, message }` and HTTP status it gets from a hosted project.

/**
 * PostgREST's status for a SQLSTATE (its documented table). `authenticated` decides 42501: 403
 * for a signed-in role, 401 for anon (PostgREST's "ask for credentials"). Codes the table does
 * not list are the client's error, 400, as in PostgREST (e.g. 0A000 calling a trigger function).
 * @param {string | undefined} code
 * @param {boolean} authenticated
 */
export function statusForPgCode(code, authenticated) {
  if (!code) return 500;
  if (code === '42501') return authenticated ? 403 : 401;
  if (code === '23505' || code === '23503' || code === '40001' || code === '40P01') return 409;
  if (code === '25006') return 405;
  if (code === '42883' || code === '42P01') return 404;
  if (code === 'P0001') return 400;
  // Class 54 (program limit exceeded: statement too complex, too many columns or arguments)
  // and 53400: 413, as older PostgREST versions answered (newer ones say 500, PostgREST issue
  // #3255); kept a 4xx here because it is the request that is too big or too deep.
  if (code === '53400' || code.startsWith('54')) return 413;
  if (code.startsWith('08') || code.startsWith('53') || code === '57P01') return 503;
  if (code.startsWith('0L') || code.startsWith('0P') || code.startsWith('28')) return 403;
  if (code === '42P17') return 500;
  const serverSide = ['09', '25', '2D', '38', '39', '3B', '40', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'];
  if (serverSide.some((c) => code.startsWith(c))) return 500;
  return 400;
}

/**
 * True when `err` came from Postgres (has a SQLSTATE).
 * @param {unknown} err
 * @returns {err is PgError}
 */
export function isPgError(err) {
  if (!err || typeof err !== 'object') return false;
  const code = /** @type {{ code?: unknown }} */ (err).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/**
 * True for a Postgres error caused by the data a client sent rather than by the server: class
 * 22 (data exception, e.g. 22021 a NUL or invalid byte in text, 22P05 an untranslatable
 * \u0000 in json, 22003 a number out of range) and class 54 (program limit exceeded, e.g.
 * 54001 statement too complex). Services that do not answer in PostgREST's shape use this to
 * turn such errors into their own 400 instead of a 500.
 * @param {unknown} err
 */
export function isBadInputPgError(err) {
  if (!isPgError(err)) return false;
  const code = /** @type {{ code: string }} */ (err).code;
  return code.startsWith('22') || code.startsWith('54');
}

/**
 * A Postgres error as pg and PGlite throw it (their DatabaseError's fields).
 * @typedef {Error & { code: string, detail?: string, hint?: string }} PgError
 */

/**
 * PostgREST's JSON body for a Postgres error.
 * @param {PgError} err
 */
export function pgErrorBody(err) {
  return {
    code: err.code,
    details: err.detail ?? null,
    hint: err.hint ?? null,
    message: err.message,
  };
}
