// The buyer's invitation e-mail, sent through the project's transactional mail API (an HTTP
// e-mail provider: Resend's `POST /emails`, with the key as a bearer), so invitations never
// draw on the auth server's hourly e-mail budget that sign-ups and resets spend
// (docs/decisions/079-invitations-through-the-mail-api.md). Its words are
// supabase/templates/invite.html's, the mail Auth's own invite would send; a test keeps the two
// saying the same.

export type MailApi = {
  /** The provider's API origin, e.g. https://api.resend.com (no trailing slash). */
  url: string;
  /** The provider's API key: a function secret, never in the browser. */
  key: string;
  /** The From header: `Name <address@verified-domain>`. */
  from: string;
};

export type InviteMailFields = {
  /** The site's origin; the link leads to its confirm page. */
  siteUrl: string;
  email: string;
  /** generateLink's `properties.hashed_token` (GoTrue's {{ .TokenHash }}). */
  tokenHash: string;
  /** generateLink's `properties.email_otp` (GoTrue's {{ .Token }}). */
  otp: string;
};

/** config.toml [auth.email.template.invite] subject. */
export const INVITE_SUBJECT = 'Your files are ready';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** The invitation as supabase/templates/invite.html renders it: subject, HTML and plain text. */
export function inviteMail({ siteUrl, email, tokenHash, otp }: InviteMailFields) {
  const confirm = `${siteUrl}/auth/confirm`;
  const link = `${confirm}?token_hash=${encodeURIComponent(tokenHash)}&type=invite&email=${encodeURIComponent(email)}`;
  const paragraphs = {
    made: `We have made an account for ${email} so you can download your files. Open this page and press its button to choose a password and open them:`,
    code: `Or open ${confirm} on any device and type this code:`,
    expiry:
      'The link and the code work once, for an hour. If they have expired, the page offers a new link in one tap; or go to the sign-in page, choose "Forgot password?" and enter this e-mail address.',
    close: 'Your book is waiting to be written. We are glad you are here.',
    team: `The Yes, You Can! team · ${siteUrl}`,
  };
  const html = [
    `<h2>${INVITE_SUBJECT}</h2>`,
    '<p>Thank you for your purchase of <strong>Yes, You Can!</strong></p>',
    `<p>${escapeHtml(paragraphs.made)}</p>`,
    `<p><a href="${escapeHtml(link)}">Choose my password and open my files</a></p>`,
    `<p>${escapeHtml(paragraphs.code)} <strong>${escapeHtml(otp)}</strong></p>`,
    `<p>${escapeHtml(paragraphs.expiry)}</p>`,
    `<p>${escapeHtml(paragraphs.close)}<br />${escapeHtml(paragraphs.team)}</p>`,
  ].join('\n');
  const text = [
    INVITE_SUBJECT,
    'Thank you for your purchase of Yes, You Can!',
    paragraphs.made,
    `Choose my password and open my files: ${link}`,
    `${paragraphs.code} ${otp}`,
    paragraphs.expiry,
    `${paragraphs.close}\n${paragraphs.team}`,
  ].join('\n\n');
  return { subject: INVITE_SUBJECT, html, text, link };
}

/** What the provider said: sent (its id), or its refusal (status, its error name and message). */
export type MailResult = { ok: true; id: string } | { ok: false; status: number; name: string; message: string };

/**
 * Sends one e-mail. `idempotencyKey` makes a retried call with the same mail send nothing twice
 * (the provider keeps the key a day). Never throws for the provider's refusals; a network
 * failure is a refusal with status 0.
 */
export async function sendMail(
  api: MailApi,
  mail: { to: string; subject: string; html: string; text: string },
  options: { idempotencyKey?: string; fetch?: typeof fetch } = {},
): Promise<MailResult> {
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(`${api.url}/emails`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${api.key}`,
        'Content-Type': 'application/json',
        ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
      },
      body: JSON.stringify({ from: api.from, to: [mail.to], subject: mail.subject, html: mail.html, text: mail.text }),
    });
  } catch (err) {
    return { ok: false, status: 0, name: 'network_error', message: err instanceof Error ? err.message : String(err) };
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.ok && typeof body?.id === 'string') return { ok: true, id: body.id };
  return {
    ok: false,
    status: res.status,
    name: typeof body?.name === 'string' ? body.name : 'error',
    message: typeof body?.message === 'string' ? body.message : `HTTP ${res.status}`,
  };
}
