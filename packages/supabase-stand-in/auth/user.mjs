// @ts-check
// GET /user, PUT /user (internal/api/user.go) and POST /logout (internal/api/logout.go).
import { fieldsOf } from './context.mjs';
import { authError, emailExists } from './errors.mjs';
import { sendEmailChange } from './mail.mjs';
import { safeRedirect } from './redirects.mjs';
import { currentUser } from './sessions.mjs';
import { metadata, updatePassword, userById, userJson, validateEmail, validatePassword } from './users.mjs';

/** @typedef {import('./context.mjs').AuthContext} AuthContext */

/**
 * GET /user
 * @param {AuthContext} ctx
 * @param {string | null} token
 */
export async function getUser(ctx, token) {
  return userJson((await currentUser(ctx, token)).user);
}

/**
 * A new password may be saved: with secure_password_change, a session older than 24 hours needs
 * a reauthentication nonce (400 reauthentication_needed); the same password again is 422
 * same_password.
 * @param {AuthContext} ctx
 * @param {{ id: string }} user
 * @param {{ created_at: Date } | null} session
 * @param {string} password
 * @param {unknown} nonce
 */
async function checkNewPassword(ctx, user, session, password, nonce) {
  if (ctx.config.securePasswordChange) {
    const recent = session && Date.now() <= new Date(session.created_at).getTime() + 24 * 3600 * 1000;
    if (!recent) {
      if (typeof nonce !== 'string' || nonce === '')
        throw authError(400, 'reauthentication_needed', 'Password update requires reauthentication');
      // The stand-in sends no reauthentication codes (POST /reauthenticate), so no nonce is valid.
      throw authError(403, 'reauthentication_not_valid', 'Requires reauthentication');
    }
  }
  /** @type {import('@electric-sql/pglite').Results<{ same: boolean }>} */
  const same = await ctx.db.query(
    `select coalesce(encrypted_password, '') <> '' and encrypted_password = extensions.crypt($2, encrypted_password) as same
       from auth.users where id = $1`,
    [user.id, password],
  );
  if (same.rows[0]?.same)
    throw authError(422, 'same_password', 'New password should be different from the old password.');
}

/**
 * The new address asked for, when it is another one; another user's is 422 email_exists.
 * @param {AuthContext} ctx
 * @param {{ id: string, email: string }} user
 * @param {unknown} raw
 */
async function newEmailOf(ctx, user, raw) {
  if (typeof raw !== 'string' || raw === '' || raw.trim().toLowerCase() === user.email) return null;
  const email = validateEmail(raw);
  const taken = await ctx.db.query(`select 1 from auth.users where lower(email) = $1 and id <> $2`, [email, user.id]);
  if (taken.rows.length) throw emailExists();
  return email;
}

/**
 * PUT /user (UserUpdate), for the caller requireAuthentication found (sessions.mjs currentUser,
 * which the route runs before the rate limiter, as GoTrue's api.go does). A password
 * (checkNewPassword): saving it ends the user's other sessions. An e-mail: nothing changes until
 * the links are followed (sendEmailChange), in either posture. `data` merges into user_metadata.
 * @param {AuthContext} ctx
 * @param {Awaited<ReturnType<typeof currentUser>>} caller
 * @param {unknown} body
 * @param {string | null} redirectTo
 */
export async function updateUser(ctx, caller, body, redirectTo) {
  const { user, session } = caller;
  const b = fieldsOf(body);
  const newEmail = await newEmailOf(ctx, user, b.email);
  const password = b.password === undefined || b.password === null ? null : validatePassword(b.password);
  if (password !== null) await checkNewPassword(ctx, user, session, password, b.nonce);
  await ctx.db.transaction(async (tx) => {
    if (password !== null) await updatePassword(tx, user.id, password, session?.id ?? null);
    if (b.data !== undefined) {
      await tx.query(
        `update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = now() where id = $1`,
        [user.id, JSON.stringify(metadata(b.data))],
      );
    }
    if (newEmail) await sendEmailChange(ctx, tx, user, newEmail, safeRedirect(redirectTo, ctx.siteUrl));
  });
  return userJson(await userById(ctx.db, user.id));
}

/**
 * POST /logout?scope=global|local|others
 * @param {AuthContext} ctx
 * @param {string | null} token
 * @param {string} scope
 */
export async function logout(ctx, token, scope) {
  const { user, claims } = await currentUser(ctx, token);
  if (scope === 'global') await ctx.db.query(`delete from auth.sessions where user_id = $1`, [user.id]);
  else if (scope === 'others')
    await ctx.db.query(`delete from auth.sessions where user_id = $1 and id <> $2::text::uuid`, [
      user.id,
      String(claims.session_id ?? '00000000-0000-0000-0000-000000000000'),
    ]);
  else if (claims.session_id)
    await ctx.db.query(`delete from auth.sessions where id = $1::text::uuid`, [String(claims.session_id)]);
}
