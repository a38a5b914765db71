// @ts-check
// POST /recover (internal/api/recover.go): the same answer whether or not the address has an
// account; a recovery link and code to an address that has one.
import { fieldsOf } from './context.mjs';
import { authError } from './errors.mjs';
import {
  claimEmailSend,
  mailData,
  spendEmailBudget,
  newOneTimeToken,
  sendMail,
  storeOneTimeToken,
  verifyLink,
} from './mail.mjs';
import { safeRedirect } from './redirects.mjs';
import { findUser, validateEmail } from './users.mjs';

/**
 * @param {import('./context.mjs').AuthContext} ctx
 * @param {unknown} body
 * @param {string | null} redirectTo
 */
export async function recover(ctx, body, redirectTo) {
  const b = fieldsOf(body);
  if (typeof b.email !== 'string' || b.email === '')
    throw authError(400, 'validation_failed', 'Password recovery requires an email');
  const email = validateEmail(b.email);
  const user = await findUser(ctx.db, `lower(u.email) = $1 and u.deleted_at is null`, [email]);
  if (!user) return {};
  const token = newOneTimeToken(email);
  const redirect = safeRedirect(redirectTo, ctx.siteUrl);
  await ctx.db.transaction(async (tx) => {
    await claimEmailSend(tx, user.id, 'recovery_sent_at');
    spendEmailBudget(ctx);
    await storeOneTimeToken(tx, user.id, 'recovery', token, redirect);
    await tx.query(`update auth.users set recovery_token = $2 where id = $1`, [user.id, token.tokenHash]);
    const link = verifyLink(ctx, token.tokenHash, 'recovery', redirect);
    const mail = ctx.mailTemplates.render('recovery', mailData(ctx, user, link, token, redirect));
    await sendMail(ctx, tx, { to: email, subject: mail.subject, body: mail.text, link, otp: token.otp });
  });
  return {};
}
