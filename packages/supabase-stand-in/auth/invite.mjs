// @ts-check
// POST /invite (service role), internal/api/invite.go: a confirmed user is refused (422
// email_exists); an unconfirmed one, with whatever password it has, gets a new invitation (the
// old link stops working); otherwise an unconfirmed user without a password is created. The
// e-mail's link is a `type=invite` verify link; accepting it confirms the address and opens a
// session. Past the project's e-mail budget, 429 over_email_send_rate_limit and no user.
import { fieldsOf } from './context.mjs';
import { authError, emailExists } from './errors.mjs';
import { mailData, newOneTimeToken, sendMail, spendEmailBudget, storeOneTimeToken, verifyLink } from './mail.mjs';
import { safeRedirect } from './redirects.mjs';
import { createUser, findUser, metadata, userById, userJson, validateEmail } from './users.mjs';

/**
 * Makes `token` the user's one invitation (an older link stops working), as both /invite and
 * admin/generate_link do.
 * @param {import('./context.mjs').Queryable} tx
 * @param {string} userId
 * @param {{ otp: string, tokenHash: string }} token
 * @param {string} redirect
 */
export async function storeInvitation(tx, userId, token, redirect) {
  await storeOneTimeToken(tx, userId, 'confirmation', token, redirect);
  await tx.query(
    `update auth.users set invited_at = now(), confirmation_sent_at = now(), confirmation_token = $2, updated_at = now()
      where id = $1`,
    [userId, token.tokenHash],
  );
}

/**
 * @param {import('./context.mjs').AuthContext} ctx
 * @param {unknown} body
 * @param {string | null} redirectTo
 */
export async function invite(ctx, body, redirectTo) {
  const b = fieldsOf(body);
  if (typeof b.email !== 'string' || b.email === '')
    throw authError(400, 'validation_failed', 'An email address is required');
  const email = validateEmail(b.email);
  let user = await findUser(ctx.db, `lower(u.email) = $1`, [email]);
  if (user?.email_confirmed_at) throw emailExists();
  // GoTrue creates the user and sends in one transaction: past the budget (429) neither happens.
  spendEmailBudget(ctx);
  user ??= await createUser(ctx.db, { email, password: null, userMetadata: metadata(b.data), confirmed: false });
  // Created by a racing request in between, and so maybe confirmed already: refuse as GoTrue's unique index would.
  if (!user) throw emailExists();
  const token = newOneTimeToken(email);
  const redirect = safeRedirect(redirectTo, ctx.siteUrl);
  const invited = user;
  const userId = user.id;
  await ctx.db.transaction(async (tx) => {
    await storeInvitation(tx, userId, token, redirect);
    const link = verifyLink(ctx, token.tokenHash, 'invite', redirect);
    const mail = ctx.mailTemplates.render('invite', mailData(ctx, invited, link, token, redirect));
    await sendMail(ctx, tx, { to: email, subject: mail.subject, body: mail.text, link, otp: token.otp });
  });
  return userJson(await userById(ctx.db, userId));
}
