// @ts-check
// POST /signup (internal/api/signup.go) and POST /resend (internal/api/resend.go).
import { randomUUID } from 'node:crypto';
import { fieldsOf } from './context.mjs';
import { authError, emailExists } from './errors.mjs';
import { sendConfirmation, sendEmailChange } from './mail.mjs';
import { safeRedirect } from './redirects.mjs';
import { issueSession } from './sessions.mjs';
import {
  confirmUser,
  findUser,
  insertUser,
  metadata,
  userById,
  userJson,
  validateEmail,
  validatePassword,
} from './users.mjs';

/** @typedef {import('./context.mjs').AuthContext} AuthContext */

/**
 * sanitizeUser (internal/api/signup.go): what a sign-up with a confirmed address answers
 * when confirmations are on, shaped like a new unconfirmed user, so the answer does not say
 * whether the address has an account.
 * @param {string} email
 * @param {Record<string, unknown>} data
 * @returns {import('@supabase/auth-js').User}
 */
function sanitizedUser(email, data) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/**
 * POST /signup. A new address: an unconfirmed user with the password; with confirmations off it
 * is confirmed at once and signed in, with them on a confirmation mail goes to the address and
 * the answer is the user, without a session. An address with an unconfirmed account: the account
 * is not changed ("we can't be sure of their claimed identity"), the typed password not saved;
 * confirmations off confirm it and sign in whoever asked, on mail it a new link (429 within
 * max_frequency of the last). A confirmed address: 422 user_already_exists with confirmations
 * off, else an answer that looks like a new sign-up and sends nothing.
 * @param {AuthContext} ctx
 * @param {unknown} body
 * @param {string | null} redirectTo
 */
export async function signup(ctx, body, redirectTo) {
  const b = fieldsOf(body);
  const email = validateEmail(b.email);
  const password = validatePassword(b.password);
  const data = metadata(b.data);
  const redirect = safeRedirect(redirectTo, ctx.siteUrl);
  const existing = await findUser(ctx.db, `lower(u.email) = $1`, [email]);
  if (existing?.email_confirmed_at) {
    if (ctx.autoconfirm) throw authError(422, 'user_already_exists', 'User already registered');
    return sanitizedUser(email, data);
  }
  const userId = await ctx.db.transaction(async (tx) => {
    const id = existing?.id ?? (await insertUser(tx, { email, password, userMetadata: data }));
    // Created by a racing request in between: GoTrue's unique index refuses the second.
    if (!id) throw emailExists();
    if (ctx.autoconfirm) await confirmUser(tx, id);
    else await sendConfirmation(ctx, tx, await userById(tx, id), redirect);
    return id;
  });
  const user = await userById(ctx.db, userId);
  if (user.email_confirmed_at) return issueSession(ctx, user);
  const json = userJson(user);
  // An invited user's data stays private to whoever accepts the invitation.
  return user.invited_at ? { ...json, user_metadata: {}, identities: [] } : json;
}

/**
 * The address a resend is for, after GoTrue's checks of type, e-mail and phone, in its order.
 * @param {Record<string, unknown>} b
 * @returns {{ type: 'signup' | 'email_change', email: string }}
 */
function resendParams(b) {
  const type = b.type;
  if (type !== 'signup' && type !== 'email_change' && type !== 'sms' && type !== 'phone_change')
    throw authError(400, 'validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change');
  const rawEmail = typeof b.email === 'string' ? b.email : '';
  const phone = typeof b.phone === 'string' ? b.phone : '';
  if (rawEmail === '' && type === 'signup')
    throw authError(400, 'validation_failed', 'Type provided requires an email address');
  if (rawEmail === '') {
    if (phone !== '') throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    throw authError(400, 'validation_failed', 'Missing email address or phone number');
  }
  if (phone !== '')
    throw authError(400, 'validation_failed', 'Only an email address or phone number should be provided.');
  const email = validateEmail(rawEmail);
  if (type === 'sms' || type === 'phone_change')
    throw authError(400, 'validation_failed', 'Type provided requires a phone number');
  return { type, email };
}

/**
 * POST /resend: type signup mails a new confirmation link to an unconfirmed address, type
 * email_change the e-mail change links again. Unknown addresses, confirmed ones and users with no
 * change pending get {} and nothing is sent.
 * @param {AuthContext} ctx
 * @param {unknown} body
 * @param {string | null} redirectTo
 */
export async function resend(ctx, body, redirectTo) {
  const { type, email } = resendParams(fieldsOf(body));
  const user = await findUser(ctx.db, `lower(u.email) = $1`, [email]);
  if (!user) return {};
  if (type === 'signup' && user.email_confirmed_at) return {};
  const pendingEmail = user.email_change;
  if (type === 'email_change' && !pendingEmail) return {};
  const redirect = safeRedirect(redirectTo, ctx.siteUrl);
  await ctx.db.transaction(async (tx) => {
    if (type === 'signup' || !pendingEmail) await sendConfirmation(ctx, tx, user, redirect);
    else await sendEmailChange(ctx, tx, user, pendingEmail, redirect);
  });
  return {};
}
