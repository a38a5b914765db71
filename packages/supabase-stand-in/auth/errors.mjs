// @ts-check
// GoTrue's error answers (internal/api/errors.go, internal/api/errorcodes.go) and the refusals
// every /auth/v1 route shares: NUL characters, and database errors caused by the data sent.
import { HttpError } from '../http.mjs';
import { isBadInputPgError } from '../pg-errors.mjs';

const API_VERSION = '2024-01-01';
/** Sent on every auth answer: the API version the stand-in speaks. */
export const AUTH_HEADERS = Object.freeze({ 'X-Supabase-Api-Version': API_VERSION });

/**
 * GoTrue's legacy error body; `authErrorBody` turns it into the versioned one.
 * @typedef {{ code: number, error_code: string, msg: string } & Record<string, unknown>} AuthErrorBody
 */

/** A GoTrue error: its status, its error code and message. */
export class AuthError extends HttpError {
  /**
   * @param {number} status
   * @param {string} errorCode
   * @param {string} msg
   * @param {Record<string, unknown>} [extra]
   */
  constructor(status, errorCode, msg, extra = {}) {
    /** @type {AuthErrorBody} */
    const body = { code: status, error_code: errorCode, msg, ...extra };
    super(status, body);
    this.authCode = errorCode;
    this.authBody = body;
  }
}

/**
 * A GoTrue error. Clients that send X-Supabase-Api-Version get `{ code, msg }` (code = the
 * error code string); older ones get the legacy `{ code: status, error_code, msg }`. Both
 * become AuthApiError(msg, status, code) in supabase-js.
 * @param {number} status
 * @param {string} errorCode
 * @param {string} msg
 * @param {Record<string, unknown>} [extra]
 */
export function authError(status, errorCode, msg, extra = {}) {
  return new AuthError(status, errorCode, msg, extra);
}

/** GoTrue's answer when an e-mail belongs to another user already. */
export function emailExists() {
  return authError(422, 'email_exists', 'A user with this email address has already been registered');
}

/**
 * Shapes an error body for the request's API version.
 * @param {import('node:http').IncomingMessage} req
 * @param {HttpError} err
 * @returns {unknown}
 */
export function authErrorBody(req, err) {
  if (err instanceof AuthError && req.headers['x-supabase-api-version']) {
    const { code: _status, error_code, ...rest } = err.authBody;
    return { ...rest, code: error_code };
  }
  return err.body;
}

/**
 * Auth's answer to an error from an endpoint: anything Postgres refuses because of the data
 * sent (an invalid byte, a value out of range, a statement too complex) is the caller's error,
 * 400, not 500; two requests racing for one address get what GoTrue's check would answer.
 * @param {unknown} err
 * @returns {unknown}
 */
export function asAuthError(err) {
  if (isBadInputPgError(err))
    return authError(400, 'validation_failed', `Invalid input: ${/** @type {Error} */ (err).message}`);
  const e = /** @type {{ code?: unknown, constraint?: unknown, detail?: unknown } | null} */ (err);
  if (e?.code === '23505' && /email/.test(`${e.constraint ?? ''} ${e.detail ?? ''}`)) return emailExists();
  return err;
}

export const NUL_MSG = 'Request contains a NUL character (\\u0000), which is not allowed';

/**
 * True when a string anywhere in a parsed JSON value (keys included) holds a NUL character,
 * which Postgres text and jsonb cannot store. Walks with an explicit stack, no recursion.
 * @param {unknown} value
 */
export function containsNul(value) {
  /** @type {unknown[]} */
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (Array.isArray(v)) {
      // One by one: spreading a long array into push() overflows the call stack.
      for (const x of v) stack.push(x);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\0')) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/**
 * NUL cannot be stored in Postgres text or jsonb: refused up front, in the query string and
 * anywhere in a JSON body, with GoTrue's validation error (not a database error later).
 * @param {URL} url
 */
export function refuseNulQuery(url) {
  for (const [k, v] of url.searchParams) {
    if (k.includes('\0') || v.includes('\0')) throw authError(400, 'validation_failed', NUL_MSG);
  }
}

/**
 * @param {unknown} body
 * @returns {unknown}
 */
export function refuseNulBody(body) {
  if (containsNul(body)) throw authError(400, 'validation_failed', NUL_MSG);
  return body;
}
