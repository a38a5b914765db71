// @ts-check
// POST /verify and GET /verify, the e-mailed link (internal/api/verify.go): a one-time token is
// consumed, what GoTrue's verify does for its type is done, and a session is opened.
import { randomBytes } from 'node:crypto';
import { HttpError } from '../http.mjs';
import { AuthError, authError } from './errors.mjs';
import { OTP_EXPIRY, tokenHashOf } from './mail.mjs';
import { safeRedirect } from './redirects.mjs';
import { issueSession } from './sessions.mjs';
import { confirmUser, findUser, isBanned, updatePassword } from './users.mjs';

/** @typedef {import('./context.mjs').AuthContext} AuthContext */
/** @typedef {import('./context.mjs').Tx} Tx */
/** @typedef {import('./context.mjs').UserRow} UserRow */
/** @typedef {import('./mail.mjs').TokenType} TokenType */

/** GoTrue's singleConfirmationAccepted. */
const SINGLE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/**
 * Which stored token a verify `type` may consume (verifyTokenHash): `email` takes a confirmation
 * or a recovery token, `email_change` either address's token.
 * @type {Readonly<Record<string, readonly TokenType[]>>}
 */
const TOKEN_TYPES = {
  recovery: ['recovery'],
  magiclink: ['recovery'],
  invite: ['confirmation'],
  signup: ['confirmation'],
  email: ['confirmation', 'recovery'],
  email_change: ['email_change_current', 'email_change_new'],
};

/**
 * signupVerify: an invited user without a password gets a random one (UpdatePassword: every
 * session ends; the app then asks for a real one), then the address is confirmed and the e-mail
 * identity marked verified. A password the account had already is kept by GoTrue; the trigger
 * of migration 20261125000100 makes it unusable as the address is confirmed, since the
 * confirming request did not set it.
 * @param {Tx} tx
 * @param {UserRow} user
 */
async function signupVerify(tx, user) {
  if (!user.encrypted_password && user.invited_at)
    await updatePassword(tx, user.id, randomBytes(32).toString('hex'), null);
  await confirmUser(tx, user.id);
  await tx.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb
      where user_id = $1 and provider = 'email' and lower(identity_data ->> 'email') = lower($2)`,
    [user.id, user.email],
  );
}

/**
 * recoverVerify: the recovery token is spent; an unconfirmed address is confirmed.
 * @param {Tx} tx
 * @param {UserRow} user
 */
async function recoverVerify(tx, user) {
  await tx.query(`update auth.users set recovery_token = '' where id = $1`, [user.id]);
  await tx.query(`delete from _local.one_time_tokens where user_id = $1`, [user.id]);
  if (!user.email_confirmed_at) await confirmUser(tx, user.id);
}

/**
 * emailChangeVerify. With confirmations on and double_confirm_changes, the first of the two
 * links only records that one address agreed (false: "proceed to confirm the link sent to the
 * other email"); the second, or the only one otherwise, moves the account to the new address
 * (ConfirmEmailChange: the identity follows, marked verified; an unconfirmed account is confirmed).
 * @param {AuthContext} ctx
 * @param {Tx} tx
 * @param {UserRow} user
 * @param {TokenType} tokenType
 */
async function emailChangeVerify(ctx, tx, user, tokenType) {
  if (!ctx.autoconfirm && ctx.config.doubleConfirmChanges && user.email_change_confirm_status === 0 && user.email) {
    const column = tokenType === 'email_change_current' ? 'email_change_token_current' : 'email_change_token_new';
    await tx.query(`update auth.users set email_change_confirm_status = 1, ${column} = '' where id = $1`, [user.id]);
    return false;
  }
  await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true)
      where user_id = $1 and provider = 'email'`,
    [user.id, user.email_change],
  );
  await tx.query(
    `update auth.users set email = email_change, email_change = '', email_change_token_current = '',
            email_change_token_new = '', email_change_confirm_status = 0, updated_at = now()
      where id = $1`,
    [user.id],
  );
  await tx.query(`delete from _local.one_time_tokens where user_id = $1`, [user.id]);
  if (!user.email_confirmed_at) await confirmUser(tx, user.id);
  return true;
}

/** @typedef {{ user_id: string, redirect_to: string, token_type: TokenType, single?: true }} UsedToken */

/**
 * In one transaction: the token is deleted (spent) and its type's verify done.
 * @param {AuthContext} ctx
 * @param {Tx} tx
 * @param {string} hash
 * @param {readonly TokenType[]} kinds
 * @returns {Promise<UsedToken | null>}
 */
async function spendToken(ctx, tx, hash, kinds) {
  /** @type {import('@electric-sql/pglite').Results<UsedToken>} */
  const r = await tx.query(
    `delete from _local.one_time_tokens
      where token_hash = $1 and token_type = any($2::text[]) and created_at > now() - $3::interval
      returning user_id, redirect_to, token_type`,
    [hash, kinds, OTP_EXPIRY],
  );
  const used = r.rows[0];
  if (!used) return null;
  const user = await findUser(tx, `u.id = $1`, [used.user_id]);
  if (!user) return null;
  if (isBanned(user)) throw authError(403, 'user_banned', 'User is banned');
  if (used.token_type === 'confirmation') await signupVerify(tx, user);
  else if (used.token_type === 'recovery') await recoverVerify(tx, user);
  else if (!(await emailChangeVerify(ctx, tx, user, used.token_type))) return { ...used, single: true };
  return used;
}

/** GoTrue's answers when no live token matches: a link's hash, or an address and its code. */
const LINK_EXPIRED = 'Email link is invalid or has expired';
const CODE_EXPIRED = 'Token has expired or is invalid';

/**
 * Consumes a one-time token (by its hash) of a type the verify `type` accepts, and opens a
 * session, except for the first of two e-mail change links.
 * @param {AuthContext} ctx
 * @param {string} type
 * @param {{ hash: string, fromCode: boolean }} given
 */
async function consumeToken(ctx, type, { hash, fromCode }) {
  const expired = fromCode ? CODE_EXPIRED : LINK_EXPIRED;
  const kinds = Object.hasOwn(TOKEN_TYPES, type) ? TOKEN_TYPES[type] : undefined;
  if (!kinds && fromCode) throw authError(403, 'otp_expired', expired);
  if (!kinds) throw authError(400, 'validation_failed', 'Invalid email verification type');
  const row = await ctx.db.transaction((tx) => spendToken(ctx, tx, hash, kinds));
  if (!row) throw authError(403, 'otp_expired', expired);
  if (row.single) return { session: null, redirectTo: row.redirect_to };
  const user = await findUser(ctx.db, `u.id = $1`, [row.user_id]);
  if (!user) throw authError(403, 'otp_expired', expired);
  return { session: await issueSession(ctx, user, 'otp'), redirectTo: row.redirect_to };
}

/**
 * VerifyParams.Validate for POST (internal/api/verify.go): a code with its address, or a
 * token hash with nothing but the type; answers the hash to look for.
 * @param {Record<string, unknown>} b
 */
function postedToken(b) {
  const type = typeof b.type === 'string' ? b.type : '';
  if (!type) throw authError(400, 'validation_failed', 'Verify requires a verification type');
  const token = typeof b.token === 'string' ? b.token : '';
  const tokenHash = typeof b.token_hash === 'string' ? b.token_hash : '';
  if (!token === !tokenHash)
    throw authError(400, 'validation_failed', 'Verify requires either a token or a token hash');
  if (token) {
    if (typeof b.email !== 'string' || !b.email || b.phone)
      throw authError(400, 'validation_failed', 'Only an email address or phone number should be provided on verify');
    return { type, hash: tokenHashOf(b.email.trim().toLowerCase(), token), fromCode: true };
  }
  if (b.email || b.phone || b.redirect_to)
    throw authError(400, 'validation_failed', 'Only the token_hash and type should be provided');
  return { type, hash: tokenHash, fromCode: false };
}

/**
 * POST /verify: a token hash, or e-mail + code, as JSON; answers a session, or for the first
 * of two e-mail change links GoTrue's `{ msg, code: "200" }`.
 * @param {AuthContext} ctx
 * @param {unknown} body
 */
export async function verify(ctx, body) {
  const { type, ...given } = postedToken(/** @type {Record<string, unknown>} */ (body ?? {}));
  const { session } = await consumeToken(ctx, type, given);
  return session ?? { msg: SINGLE_CONFIRMATION, code: '200' };
}

/**
 * GET /verify: the e-mailed link. Answers where to send the browser: `redirect_to` (checked
 * again, as whoever holds the link can edit it) with a session, or GoTrue's error, in the fragment.
 * @param {AuthContext} ctx
 * @param {URL} url
 * @returns {Promise<string>}
 */
export async function followLink(ctx, url) {
  const type = url.searchParams.get('type') ?? 'recovery';
  try {
    const token = url.searchParams.get('token');
    if (!token) throw authError(400, 'validation_failed', 'Verify requires a token or a token hash');
    const { session, redirectTo } = await consumeToken(ctx, type, { hash: token, fromCode: false });
    const asked = url.searchParams.get('redirect_to');
    const target = asked ? safeRedirect(asked, ctx.siteUrl) : safeRedirect(redirectTo, ctx.siteUrl);
    // The first of two e-mail change links: prepRedirectURL's message, no session.
    if (!session) return `${target}#${new URLSearchParams({ message: SINGLE_CONFIRMATION, sb: '' })}`;
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type,
    });
    return `${target}#${fragment}`;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    // GoTrue's prepErrorRedirectURL: the OAuth error for the status, then its own code and message.
    const target = safeRedirect(url.searchParams.get('redirect_to'), ctx.siteUrl);
    const fragment = new URLSearchParams({
      error: err.status === 403 ? 'access_denied' : 'invalid_request',
      error_code: err instanceof AuthError ? err.authCode : 'otp_expired',
      error_description: err instanceof AuthError ? err.authBody.msg : 'Email link is invalid or has expired',
    });
    return `${target}#${fragment}`;
  }
}
