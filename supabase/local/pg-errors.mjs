// Maps Postgres errors to PostgREST's status codes and JSON error shape, so supabase-js gets
// the same `{ code, details, hint, message }` and HTTP status it gets from a hosted project.

/**
 * PostgREST's status for a SQLSTATE. `authenticated` decides 42501: 403 for a signed-in role,
 * 401 for anon (PostgREST's "ask for credentials").
 * @param {string | undefined} code
 * @param {boolean} authenticated
 */
export function statusForPgCode(code, authenticated) {
  if (!code) return 500;
  if (code === '42501') return authenticated ? 403 : 401;
  if (code === '23505' || code === '23503' || code === '40001' || code === '40P01') return 409;
  if (code === '25006') return 405;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '53400' || code === '54000' || code === '54001') return 413;
  if (code.startsWith('08') || code.startsWith('53') || code === '57P01') return 503;
  if (code === 'P0001' || code.startsWith('22') || code.startsWith('23') || code.startsWith('42')) return 400;
  if (code.startsWith('P0')) return 500;
  return 500;
}

/** True when `err` came from Postgres (has a SQLSTATE). */
export function isPgError(err) {
  return Boolean(err && typeof err === 'object' && typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code));
}

/** PostgREST's JSON body for a Postgres error. */
export function pgErrorBody(err) {
  return {
    code: err.code,
    details: err.detail ?? null,
    hint: err.hint ?? null,
    message: err.message,
  };
}
