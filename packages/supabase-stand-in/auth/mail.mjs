// @ts-check
// The mail GoTrue would send (internal/api/mail.go, internal/mailer/): one-time tokens and the
// links that carry them, the max_frequency check, and the local inbox that GET /inbox reads.
import { createHash, randomInt } from 'node:crypto';
import { AUTH_SETTINGS } from '../config/auth.mjs';
import { EMAIL_BUDGET_MESSAGE } from '../email-budget.mjs';
import { HttpError } from '../http.mjs';
import { authError, NUL_MSG } from './errors.mjs';

/**
 * GoTrue's SMTP max_frequency: how soon the same address may be sent another e-mail
 * (supabase/config.toml [auth.email] max_frequency).
 */
export const EMAIL_MAX_FREQUENCY_SECONDS = AUTH_SETTINGS.emailMaxFrequencySeconds;

/** How long an e-mailed link or code stays valid (config.toml [auth.email] otp_expiry). */
export const OTP_EXPIRY = `${AUTH_SETTINGS.otpExpirySeconds} seconds`;

/**
 * The invitation is the buyer's "your files are ready" e-mail (config.toml
 * [auth.email.template.invite] subject, mirrored here and checked by a test).
 */
export const INVITE_SUBJECT = 'Your files are ready';

/** @typedef {import('./context.mjs').AuthContext} AuthContext */
/** @typedef {import('./context.mjs').Queryable} Queryable */
/** @typedef {'confirmation' | 'recovery' | 'email_change_current' | 'email_change_new'} TokenType */

/**
 * The variables GoTrue passes a mail's template (internal/mailer/templatemailer/templatemailer.go).
 * @param {AuthContext} ctx
 * @param {{ email: string, raw_user_meta_data?: unknown }} user
 * @param {string} link
 * @param {{ otp: string, tokenHash: string }} token
 * @param {string} redirect
 */
export function mailData(ctx, user, link, { otp, tokenHash }, redirect) {
  return {
    SiteURL: ctx.siteUrl,
    ConfirmationURL: link,
    Email: user.email,
    Token: otp,
    TokenHash: tokenHash,
    Data: user.raw_user_meta_data ?? {},
    RedirectTo: redirect,
  };
}

/**
 * GoTrue's GenerateTokenHash (internal/crypto/crypto.go): the SHA-224 of the address and the
 * code, in hex; what a link's `token_hash` carries and what e-mail + code is checked against.
 * @param {string} email
 * @param {string} otp
 */
export function tokenHashOf(email, otp) {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex');
}

/**
 * Writes the mail the hosted auth server would send, prints it and keeps it for GET /inbox.
 * @param {AuthContext} ctx
 * @param {Queryable} q
 * @param {{ to: string, subject: string, body: string, link: string, otp: string }} mail
 */
export async function sendMail(ctx, q, { to, subject, body, link, otp }) {
  await q.query(`insert into _local.mail (recipient, subject, body, link, otp) values ($1, $2, $3, $4, $5)`, [
    to,
    subject,
    body,
    link,
    otp,
  ]);
  ctx.log(`\n[local mail] To: ${to}\n[local mail] Subject: ${subject}\n${body}\n`);
}

/**
 * A 6-digit code and the hash its link carries: GoTrue's GenerateTokenHash(email, otp).
 * @param {string} email
 */
export function newOneTimeToken(email) {
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { otp, tokenHash: tokenHashOf(email, otp) };
}

/**
 * Keeps one live token of a type per user, as GoTrue's one_time_tokens does.
 * @param {Queryable} tx
 * @param {string} userId
 * @param {TokenType} tokenType
 * @param {{ otp: string, tokenHash: string }} token
 * @param {string} redirect
 */
export async function storeOneTimeToken(tx, userId, tokenType, { tokenHash, otp }, redirect) {
  await tx.query(`delete from _local.one_time_tokens where user_id = $1 and token_type = $2`, [userId, tokenType]);
  await tx.query(
    `insert into _local.one_time_tokens (user_id, token_type, token_hash, otp, redirect_to) values ($1, $2, $3, $4, $5)`,
    [userId, tokenType, tokenHash, otp, redirect],
  );
}

/**
 * @param {AuthContext} ctx
 * @param {string} tokenHash
 * @param {'signup' | 'invite' | 'recovery' | 'email_change'} type
 * @param {string} redirect
 */
export function verifyLink(ctx, tokenHash, type, redirect) {
  return `${ctx.baseUrl()}/auth/v1/verify?token=${tokenHash}&type=${type}&redirect_to=${encodeURIComponent(redirect)}`;
}

/**
 * GoTrue's validateSentWithinFrequencyLimit (internal/api/mail.go) on one of the user's
 * `*_sent_at` columns, as one check-and-set so two racing requests cannot both send: 429
 * over_email_send_rate_limit with GoTrue's wording when the last mail was under
 * max_frequency ago.
 * @param {Queryable} tx
 * @param {string} userId
 * @param {'confirmation_sent_at' | 'recovery_sent_at' | 'email_change_sent_at'} column
 */
export async function claimEmailSend(tx, userId, column) {
  const sent = await tx.query(
    `update auth.users set ${column} = now()
      where id = $1 and (${column} is null or ${column} + make_interval(secs => $2) <= now())
      returning id`,
    [userId, EMAIL_MAX_FREQUENCY_SECONDS],
  );
  if (sent.rows.length > 0) return;
  /** @type {import('@electric-sql/pglite').Results<{ s: number }>} */
  const left = await tx.query(
    `select trunc(extract(epoch from ${column} + make_interval(secs => $2) - now()))::int as s from auth.users where id = $1`,
    [userId, EMAIL_MAX_FREQUENCY_SECONDS],
  );
  throw authError(
    429,
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${Math.max(0, left.rows[0]?.s ?? 0)} seconds.`,
  );
}

/**
 * sendEmail (internal/api/mail.go): one e-mail from the project's budget, or 429 and nothing is sent.
 * @param {AuthContext} ctx
 */
export function spendEmailBudget(ctx) {
  if (!ctx.emailBudget.spend()) throw authError(429, 'over_email_send_rate_limit', EMAIL_BUDGET_MESSAGE);
}

/**
 * sendConfirmation (internal/api/mail.go): within max_frequency of the last one, 429;
 * otherwise a new confirmation token (the older link stops working) and a "Confirm Your
 * Signup" mail with a type=signup link, to the address, whoever asked.
 * @param {AuthContext} ctx
 * @param {Queryable} tx
 * @param {{ id: string, email: string, raw_user_meta_data?: unknown }} user
 * @param {string} redirect
 */
export async function sendConfirmation(ctx, tx, user, redirect) {
  await claimEmailSend(tx, user.id, 'confirmation_sent_at');
  spendEmailBudget(ctx);
  const token = newOneTimeToken(user.email);
  await storeOneTimeToken(tx, user.id, 'confirmation', token, redirect);
  await tx.query(`update auth.users set confirmation_token = $2 where id = $1`, [user.id, token.tokenHash]);
  const link = verifyLink(ctx, token.tokenHash, 'signup', redirect);
  const mail = ctx.mailTemplates.render('confirmation', mailData(ctx, user, link, token, redirect));
  await sendMail(ctx, tx, { to: user.email, subject: mail.subject, body: mail.text, link, otp: token.otp });
}

/**
 * sendEmailChange (internal/api/mail.go): within max_frequency of the last one, 429;
 * otherwise the change waits in email_change and a link goes to the new address, and, with
 * double_confirm_changes, another to the current one (each a type=email_change link).
 * @param {AuthContext} ctx
 * @param {Queryable} tx
 * @param {{ id: string, email: string, raw_user_meta_data?: unknown }} user
 * @param {string} newEmail
 * @param {string} redirect
 */
export async function sendEmailChange(ctx, tx, user, newEmail, redirect) {
  await claimEmailSend(tx, user.id, 'email_change_sent_at');
  spendEmailBudget(ctx);
  const fresh = newOneTimeToken(newEmail);
  const current = ctx.config.doubleConfirmChanges && user.email ? newOneTimeToken(user.email) : null;
  await tx.query(
    `update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
            email_change_confirm_status = 0 where id = $1`,
    [user.id, newEmail, fresh.tokenHash, current?.tokenHash ?? ''],
  );
  await tx.query(
    `delete from _local.one_time_tokens where user_id = $1 and token_type in ('email_change_new', 'email_change_current')`,
    [user.id],
  );
  /** @type {[string, TokenType, { otp: string, tokenHash: string }][]} */
  const sends = current ? [[user.email, 'email_change_current', current]] : [];
  sends.push([newEmail, 'email_change_new', fresh]);
  for (const [to, tokenType, token] of sends) {
    await storeOneTimeToken(tx, user.id, tokenType, token, redirect);
    const link = verifyLink(ctx, token.tokenHash, 'email_change', redirect);
    const data = { ...mailData(ctx, user, link, token, redirect), NewEmail: newEmail, SendingTo: to };
    const mail = ctx.mailTemplates.render('email_change', data);
    await sendMail(ctx, tx, { to, subject: mail.subject, body: mail.text, link, otp: token.otp });
  }
}

/**
 * GET /inbox: the newest 100 mails, or an address's.
 * @param {AuthContext} ctx
 * @param {URL} url
 */
export async function inbox(ctx, url) {
  const email = url.searchParams.get('email');
  if (email?.includes('\0')) throw new HttpError(400, { message: `email: ${NUL_MSG}` });
  const r = await ctx.db.query(
    `select id, recipient as to, subject, body, link, otp, created_at from _local.mail
      where $1::text is null or recipient = lower($1::text) order by id desc limit 100`,
    [email],
  );
  return { messages: r.rows };
}
