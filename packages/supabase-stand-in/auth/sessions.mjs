// @ts-check
// Sessions, refresh tokens and access tokens as GoTrue makes them (internal/models/sessions.go,
// internal/models/refresh_token.go, internal/tokens/service.go), and the bearer checks of the
// user and admin routes (internal/api/auth.go).
import { randomBytes } from 'node:crypto';
import { JwtError, signJwt, verifyJwt } from '../keys.mjs';
import { authError } from './errors.mjs';
import { findUser, userById, userJson } from './users.mjs';

/** @typedef {import('./context.mjs').AuthContext} AuthContext */
/** @typedef {import('./context.mjs').UserRow} UserRow */
/**
 * A session as GoTrue answers it: auth-js's Session, whose user is GoTrue's JSON (users.mjs).
 * @typedef {Omit<import('@supabase/auth-js').Session, 'user' | 'expires_at'> & {
 *   expires_at: number, user: import('./users.mjs').UserJson,
 * }} SessionJson
 */
/** @typedef {import('@supabase/auth-js').AMRMethod} AmrMethod */

/**
 * Verifies a bearer token's signature and expiry.
 * @param {string | null} token
 * @returns {Promise<Record<string, unknown>>}
 */
export async function claimsOf(token) {
  if (!token) throw authError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  try {
    return /** @type {Record<string, unknown>} */ (await verifyJwt(token));
  } catch (e) {
    const reason = e instanceof JwtError ? e.message : 'token is malformed';
    throw authError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

/**
 * The user of a bearer token: signed, unexpired, a real user, a live session.
 * @param {AuthContext} ctx
 * @param {string | null} token
 */
export async function currentUser(ctx, token) {
  const claims = await claimsOf(token);
  if (!claims.sub || claims.role === 'anon' || claims.role === 'service_role') {
    throw authError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  }
  /** @type {{ id: string, created_at: Date } | null} */
  let session = null;
  if (claims.session_id) {
    /** @type {import('@electric-sql/pglite').Results<{ id: string, created_at: Date }>} */
    const s = await ctx.db.query(`select id, created_at from auth.sessions where id = $1::text::uuid`, [
      String(claims.session_id),
    ]);
    session = s.rows[0] ?? null;
    if (!session) throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  const user = await findUser(ctx.db, `u.id = $1::text::uuid`, [String(claims.sub)]);
  if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  return { user, claims, session };
}

/**
 * The admin API and invitations need the service role.
 * @param {string | null} token
 */
export async function requireAdmin(token) {
  const claims = await claimsOf(token);
  if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') {
    throw authError(403, 'not_admin', 'User not allowed');
  }
}

/**
 * @param {AuthContext} ctx
 * @param {UserRow} user
 * @param {string} sessionId
 * @param {AmrMethod} amr
 */
function accessToken(ctx, user, sessionId, amr) {
  const now = Math.floor(Date.now() / 1000);
  return signJwt({
    aud: 'authenticated',
    exp: now + ctx.jwtExpiry,
    iat: now,
    iss: `${ctx.baseUrl()}/auth/v1`,
    sub: user.id,
    email: user.email,
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: 'aal1',
    amr: [{ method: amr, timestamp: now }],
    session_id: sessionId,
    is_anonymous: Boolean(user.is_anonymous),
  });
}

export function newRefreshToken() {
  return randomBytes(16).toString('base64url');
}

/**
 * createRefreshToken (internal/models/refresh_token.go): a new session and its first refresh token.
 * @param {import('./context.mjs').Queryable} tx
 * @param {string} userId
 */
async function openSession(tx, userId) {
  const token = newRefreshToken();
  /** @type {import('@electric-sql/pglite').Results<{ id: string }>} */
  const s = await tx.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values (gen_random_uuid(), $1, now(), now(), 'aal1') returning id`,
    [userId],
  );
  const sessionId = /** @type {{ id: string }} */ (s.rows[0]).id;
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, session_id, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, now(), now())`,
    [token, userId, sessionId],
  );
  await tx.query(`update auth.users set last_sign_in_at = now() where id = $1`, [userId]);
  return { sessionId, token };
}

/**
 * A new session for the user, answered as GoTrue does.
 * @param {AuthContext} ctx
 * @param {UserRow} user
 * @param {AmrMethod} [amr]
 */
export async function issueSession(ctx, user, amr = 'password') {
  const { sessionId, token } = await ctx.db.transaction((tx) => openSession(tx, user.id));
  return sessionJson(ctx, await userById(ctx.db, user.id), sessionId, token, amr);
}

/**
 * @param {AuthContext} ctx
 * @param {UserRow} user
 * @param {string} sessionId
 * @param {string} refreshToken
 * @param {AmrMethod} amr
 * @returns {Promise<SessionJson>}
 */
export async function sessionJson(ctx, user, sessionId, refreshToken, amr) {
  const now = Math.floor(Date.now() / 1000);
  return {
    access_token: await accessToken(ctx, user, sessionId, amr),
    token_type: 'bearer',
    expires_in: ctx.jwtExpiry,
    expires_at: now + ctx.jwtExpiry,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}
