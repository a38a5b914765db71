// @ts-check
// POST /admin/generate_link (service role), GoTrue's adminGenerateLink in internal/api/mail.go:
// makes the link and code an e-mail would carry and answers them to the caller, who sends the
// mail. Nothing is sent, so neither the project's e-mail budget (sendEmail's limiter) nor
// max_frequency applies, and no per-IP limiter guards the admin routes (internal/api/api.go).
// The types the app uses: `invite` (a confirmed address is 422 email_exists; an unconfirmed
// account gets a new token, the older link stops working; otherwise an unconfirmed user without a
// password is created) and `recovery` (an unknown address is 404 user_not_found).
import { fieldsOf } from './context.mjs';
import { authError, emailExists } from './errors.mjs';
import { storeInvitation } from './invite.mjs';
import { newOneTimeToken, storeOneTimeToken, verifyLink } from './mail.mjs';
import { safeRedirect } from './redirects.mjs';
import { createUser, findUser, metadata, userById, userJson, validateEmail } from './users.mjs';

/** GoTrue's link types; the stand-in makes the two the app asks for. */
const GOTRUE_TYPES = new Set(['signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new']);

/**
 * An invitation's token on a new or unconfirmed user, as the invite case of adminGenerateLink.
 * @param {import('./context.mjs').AuthContext} ctx
 * @param {string} email
 * @param {Record<string, unknown>} data
 * @param {{ otp: string, tokenHash: string }} token
 * @param {string} redirect
 */
async function inviteToken(ctx, email, data, token, redirect) {
  let user = await findUser(ctx.db, `lower(u.email) = $1`, [email]);
  if (user?.email_confirmed_at) throw emailExists();
  user ??= await createUser(ctx.db, { email, password: null, userMetadata: data, confirmed: false });
  if (!user) throw emailExists();
  const userId = user.id;
  await ctx.db.transaction((tx) => storeInvitation(tx, userId, token, redirect));
  return userId;
}

/**
 * The recovery case: the address must have an account.
 * @param {import('./context.mjs').AuthContext} ctx
 * @param {string} email
 * @param {{ otp: string, tokenHash: string }} token
 * @param {string} redirect
 */
async function recoveryToken(ctx, email, token, redirect) {
  const user = await findUser(ctx.db, `lower(u.email) = $1`, [email]);
  if (!user) throw authError(404, 'user_not_found', 'User with this email not found');
  await ctx.db.transaction(async (tx) => {
    await storeOneTimeToken(tx, user.id, 'recovery', token, redirect);
    await tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1`, [
      user.id,
      token.tokenHash,
    ]);
  });
  return user.id;
}

/**
 * @param {import('./context.mjs').AuthContext} ctx
 * @param {unknown} body
 * @param {string | null} redirectTo the `redirect_to` query parameter
 */
export async function generateLink(ctx, body, redirectTo) {
  const b = fieldsOf(body);
  const email = validateEmail(b.email);
  const type = typeof b.type === 'string' ? b.type : '';
  // GoTrue takes the body's redirect_to, else the referrer (GetReferrer: the `redirect_to` query
  // parameter, where supabase-js puts options.redirectTo), when allowed; else the site URL.
  const redirect = safeRedirect(typeof b.redirect_to === 'string' ? b.redirect_to : redirectTo, ctx.siteUrl);
  if (!GOTRUE_TYPES.has(type))
    throw authError(400, 'validation_failed', `Invalid email action link type requested: ${type}`);
  if (type !== 'invite' && type !== 'recovery')
    throw authError(400, 'validation_failed', `The local stand-in does not generate ${type} links`);
  const token = newOneTimeToken(email);
  const userId =
    type === 'invite'
      ? await inviteToken(ctx, email, metadata(b.data), token, redirect)
      : await recoveryToken(ctx, email, token, redirect);
  return {
    ...userJson(await userById(ctx.db, userId)),
    action_link: verifyLink(ctx, token.tokenHash, type, redirect),
    email_otp: token.otp,
    hashed_token: token.tokenHash,
    verification_type: type,
    redirect_to: redirect,
  };
}
