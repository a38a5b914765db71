// Keys and JWT helpers of the local stand-in: the same secret and demo keys as `supabase start`,
// so anything configured for a local Supabase stack works unchanged against this server.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

/** Default URL of the stand-in (same port as `supabase start`'s API gateway). */
export const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321';

function b64url(input) {
  return Buffer.from(input).toString('base64url');
}

/** Signs `payload` as a compact HS256 JWT (header `{"alg":"HS256","typ":"JWT"}`, like GoTrue). */
export function signJwt(payload, secret = JWT_SECRET) {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(payload));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

export class JwtError extends Error {
  /** @param {'malformed' | 'signature' | 'expired' | 'claims'} reason */
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Verifies an HS256 JWT and returns its payload; throws JwtError('malformed' | 'signature' |
 * 'expired' | 'claims': exp/nbf present but not a number, or nbf still in the future). Only
 * HS256 is accepted: a token claiming `none` or another algorithm is refused.
 */
export function verifyJwt(token, secret = JWT_SECRET, now = Math.floor(Date.now() / 1000)) {
  if (typeof token !== 'string') throw new JwtError('malformed', 'token is malformed');
  const parts = token.split('.');
  if (parts.length !== 3)
    throw new JwtError('malformed', 'token is malformed: token contains an invalid number of segments');
  const [head, body, sig] = /** @type {[string, string, string]} */ (parts);
  let header;
  let payload;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError('malformed', 'token is malformed: could not JSON decode');
  }
  if (!header || header.alg !== 'HS256' || !payload || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new JwtError('malformed', 'token is unverifiable: signing method is invalid');
  }
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new JwtError('signature', 'token signature is invalid: signature is invalid');
  }
  // Registered time claims are optional, but when present they must be NumericDates (RFC 7519
  // 4.1.4/4.1.5): a string or other type is refused, never skipped.
  for (const claim of ['exp', 'nbf']) {
    if (claim in payload && (typeof payload[claim] !== 'number' || !Number.isFinite(payload[claim]))) {
      throw new JwtError('claims', `token has invalid claims: ${claim} must be a number`);
    }
  }
  if (typeof payload.exp === 'number' && payload.exp <= now) {
    throw new JwtError('expired', 'token has invalid claims: token is expired');
  }
  if (typeof payload.nbf === 'number' && payload.nbf > now) {
    throw new JwtError('claims', 'token has invalid claims: token is not valid yet');
  }
  return payload;
}

/** The well-known demo anon key of `supabase start` (safe to ship to a browser). */
export const ANON_KEY = signJwt({ iss: 'supabase-demo', role: 'anon', exp: 1983812996 });

/** The well-known demo service_role key of `supabase start` (never send it to a browser). */
export const SERVICE_ROLE_KEY = signJwt({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 });

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
