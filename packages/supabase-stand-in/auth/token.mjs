// @ts-check
// POST /token?grant_type=password|refresh_token (internal/api/token.go,
// internal/tokens/service.go).
import { fieldsOf } from './context.mjs';
import { authError } from './errors.mjs';
import { issueSession, newRefreshToken, sessionJson } from './sessions.mjs';
import { findUser, isBanned } from './users.mjs';

/** @typedef {import('./context.mjs').AuthContext} AuthContext */

/** The grant types GoTrue's Token handler knows besides password and refresh_token (token.go). */
const KNOWN_GRANTS = new Set(['id_token', 'pkce', 'web3']);

/**
 * POST /token: the grant names which.
 * @param {AuthContext} ctx
 * @param {string | null} grant
 * @param {() => Promise<unknown>} body read only for a grant the stand-in knows
 */
export async function token(ctx, grant, body) {
  if (grant === 'password') return passwordGrant(ctx, await body());
  if (grant === 'refresh_token') return refreshGrant(ctx, await body());
  // Grants GoTrue has but the stand-in does not serve (README, "Not supported").
  if (KNOWN_GRANTS.has(grant ?? '')) throw authError(400, 'validation_failed', 'unsupported_grant_type');
  // internal/api/token.go Token, its default case: any other grant_type.
  throw authError(400, 'invalid_credentials', 'unsupported_grant_type');
}

/**
 * grant_type=password: the password must match a non-empty hash (models.User.Authenticate), then
 * an unconfirmed address is 400 email_not_confirmed.
 * @param {AuthContext} ctx
 * @param {unknown} body
 */
async function passwordGrant(ctx, body) {
  const b = fieldsOf(body);
  const email = typeof b.email === 'string' ? b.email.trim().toLowerCase() : '';
  const password = typeof b.password === 'string' ? b.password : '';
  if (!email || !password) throw authError(400, 'validation_failed', 'missing email or phone');
  const user = await findUser(
    ctx.db,
    `lower(u.email) = $1 and u.deleted_at is null and u.encrypted_password is not null and u.encrypted_password <> ''
       and u.encrypted_password = extensions.crypt($2, u.encrypted_password)`,
    [email, password],
  );
  if (!user) throw authError(400, 'invalid_credentials', 'Invalid login credentials');
  if (!user.email_confirmed_at) throw authError(400, 'email_not_confirmed', 'Email not confirmed');
  if (isBanned(user)) throw authError(400, 'user_banned', 'User is banned');
  return issueSession(ctx, user);
}

/**
 * @typedef {{ id: number, user_id: string, session_id: string, revoked: boolean | null, reuse_over: boolean }} RefreshRow
 * @typedef {{ error: Error } | { commitError: Error } | { sessionId: string, userId: string, issued: string }} SwapResult
 */

/**
 * The token a used one is answered with: the session's current token when the used one is its
 * parent (the client lost the answer), none within the reuse interval (swap again), else the
 * family is revoked (with rotation on) and the answer, committed, is refresh_token_already_used.
 * @param {AuthContext} ctx
 * @param {import('./context.mjs').Tx} tx
 * @param {RefreshRow} row
 * @param {string} token
 * @returns {Promise<{ issued: string | null } | { commitError: Error }>}
 */
async function answerForUsedToken(ctx, tx, row, token) {
  /** @type {import('@electric-sql/pglite').Results<{ token: string, parent: string | null }>} */
  const active = await tx.query(
    `select token, parent from auth.refresh_tokens where session_id = $1 and not coalesce(revoked, false)
      order by id desc limit 1`,
    [row.session_id],
  );
  if (active.rows[0]?.parent === token) return { issued: active.rows[0].token };
  if (!row.reuse_over) return { issued: null };
  if (ctx.config.refreshTokenRotation)
    await tx.query(
      `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not coalesce(revoked, false)`,
      [row.session_id],
    );
  return { commitError: authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used') };
}

/**
 * The swap, in one transaction.
 * @param {AuthContext} ctx
 * @param {import('./context.mjs').Tx} tx
 * @param {string} token
 * @returns {Promise<SwapResult>}
 */
async function swapRefreshToken(ctx, tx, token) {
  /** @type {import('@electric-sql/pglite').Results<RefreshRow>} */
  const r = await tx.query(
    `select t.*, (t.updated_at + make_interval(secs => $2) < now()) as reuse_over
       from auth.refresh_tokens t join auth.sessions s on s.id = t.session_id
      where t.token = $1 for update of t`,
    [token, ctx.config.refreshTokenReuseInterval],
  );
  const row = r.rows[0];
  if (!row)
    return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') };
  let issued = null;
  if (row.revoked) {
    const used = await answerForUsedToken(ctx, tx, row, token);
    if ('commitError' in used) return used;
    issued = used.issued;
  }
  if (!issued) {
    // GrantRefreshTokenSwap: the token is revoked, a child takes its place.
    issued = newRefreshToken();
    await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
    await tx.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, parent, session_id, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, $4, now(), now())`,
      [issued, row.user_id, token, row.session_id],
    );
  }
  await tx.query(`update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1`, [
    row.session_id,
  ]);
  return { sessionId: row.session_id, userId: row.user_id, issued };
}

/**
 * grant_type=refresh_token (RefreshTokenGrant). A live token is swapped for a new one (its
 * child); a used one as answerForUsedToken says.
 * @param {AuthContext} ctx
 * @param {unknown} body
 */
async function refreshGrant(ctx, body) {
  const b = fieldsOf(body);
  const token = typeof b.refresh_token === 'string' ? b.refresh_token : '';
  if (!token) throw authError(400, 'validation_failed', 'refresh_token required');
  const result = await ctx.db.transaction((tx) => swapRefreshToken(ctx, tx, token));
  if ('error' in result) throw result.error;
  // Committed (the family is revoked), then refused: storage.NewCommitWithError.
  if ('commitError' in result) throw result.commitError;
  const user = await findUser(ctx.db, `u.id = $1::text::uuid`, [result.userId]);
  if (!user) throw authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  if (isBanned(user)) throw authError(400, 'user_banned', 'Invalid Refresh Token: User Banned');
  return sessionJson(ctx, user, result.sessionId, result.issued, 'password');
}
