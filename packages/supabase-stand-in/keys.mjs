// @ts-check
// Keys and JWT helpers of the local stand-in: the same secret and demo keys as `supabase start`,
// so anything configured for a local Supabase stack works unchanged against this server.
import { SignJWT, decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';

export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

/** Default URL of the stand-in (same port as `supabase start`'s API gateway). */
export const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321';

const encoder = new TextEncoder();

/**
 * Signs `payload` as a compact HS256 JWT (header `{"alg":"HS256","typ":"JWT"}`, like GoTrue)
 * with jose. The payload is signed as given: no claim is added, and none is type-checked, so
 * tests can still mint deliberately bad tokens (a string `exp`, say).
 * @param {Record<string, unknown>} payload
 * @returns {Promise<string>}
 */
export function signJwt(payload, secret = JWT_SECRET) {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(encoder.encode(secret));
}

export class JwtError extends Error {
  /**
   * @param {'malformed' | 'signature' | 'expired' | 'claims'} reason
   * @param {string} message
   */
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Verifies an HS256 JWT with jose (no clock tolerance) and returns its payload; throws
 * JwtError('malformed' | 'signature' | 'expired' | 'claims': exp/nbf/iat present but not a
 * number, or nbf still in the future). Only HS256 is accepted: a token claiming `none` or
 * another algorithm is refused. The messages are GoTrue's (golang-jwt) wording, which the
 * stand-in's answers carry, not jose's.
 * @param {unknown} token
 * @param {string} [secret]
 * @param {number} [now]
 * @returns {Promise<Record<string, any>>}
 */
export async function verifyJwt(token, secret = JWT_SECRET, now = Math.floor(Date.now() / 1000)) {
  if (typeof token !== 'string') throw new JwtError('malformed', 'token is malformed');
  if (token.split('.').length !== 3)
    throw new JwtError('malformed', 'token is malformed: token contains an invalid number of segments');
  // Decode first (no verification yet), so a token that is not JSON, or claims another
  // algorithm, is told apart from one with a bad signature, as golang-jwt does.
  let header;
  try {
    header = decodeProtectedHeader(token);
    decodeJwt(token);
  } catch (e) {
    if (e instanceof errors.JWTInvalid && e.message === 'Invalid JWT Claims Set') {
      throw new JwtError('malformed', 'token is unverifiable: signing method is invalid');
    }
    throw new JwtError('malformed', 'token is malformed: could not JSON decode');
  }
  if (header.alg !== 'HS256') throw new JwtError('malformed', 'token is unverifiable: signing method is invalid');
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(now * 1000),
    });
    return payload;
  } catch (e) {
    throw jwtErrorOf(e);
  }
}

/**
 * jose's verification errors as the stand-in's JwtError reasons and golang-jwt's wording.
 * @param {unknown} e
 */
function jwtErrorOf(e) {
  if (e instanceof errors.JWSSignatureVerificationFailed) {
    return new JwtError('signature', 'token signature is invalid: signature is invalid');
  }
  if (e instanceof errors.JWTExpired) return new JwtError('expired', 'token has invalid claims: token is expired');
  if (e instanceof errors.JWTClaimValidationFailed) {
    return e.reason === 'invalid'
      ? new JwtError('claims', `token has invalid claims: ${e.claim} must be a number`)
      : new JwtError('claims', 'token has invalid claims: token is not valid yet');
  }
  if (e instanceof errors.JOSEAlgNotAllowed) {
    return new JwtError('malformed', 'token is unverifiable: signing method is invalid');
  }
  return new JwtError('malformed', 'token is malformed');
}

/**
 * The well-known demo anon key of `supabase start` (safe to ship to a browser): signJwt of
 * `{ iss: 'supabase-demo', role: 'anon', exp: 1983812996 }` with JWT_SECRET, kept as the
 * literal so importing it needs no await (tests check it still verifies).
 */
export const ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

/** The well-known demo service_role key of `supabase start` (never send it to a browser). */
export const SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

/** Password of every demo account in supabase/seed.sql. */
export const DEMO_PASSWORD = 'password123';

/** The demo accounts of supabase/seed.sql, for the dev banner and tests. */
export const DEMO_ACCOUNTS = [
  { email: 'ebook@example.com', tier: 'ebook', note: '' },
  { email: 'foundation@example.com', tier: 'foundation', note: '' },
  { email: 'accelerated@example.com', tier: 'accelerated', note: '' },
  { email: 'complete@example.com', tier: 'complete', note: '' },
  { email: 'notier@example.com', tier: null, note: 'no tier, no display name' },
  { email: 'staff@example.com', tier: 'complete', note: 'staff: may upload and set tiers' },
];
