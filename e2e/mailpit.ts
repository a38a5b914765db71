/**
 * Reading auth e-mails out of Mailpit, the mail catcher `supabase start` runs (its web and API
 * port is `[inbucket] port` in supabase/config.toml). Plain functions over Mailpit's JSON, so
 * the field names are tested against its shapes (scripts/e2e-mailpit.test.ts); e2e/inbox.ts
 * does the fetching.
 *
 * Mailpit's API (server/apiv1, internal/storage/structs.go):
 * - GET /api/v1/search?query=to:"a@b" → `{ messages: MessageSummary[] }`, newest first
 *   (`ORDER BY Created DESC`), 50 at most unless `limit` says otherwise. `to:` matches a
 *   substring of the recipients, so `x@example.com` also finds `ax@example.com`.
 * - GET /api/v1/message/{ID} → `Message`: `Subject`, `HTML` (decoded from the MIME part), `Text`.
 * Addresses are Go's net/mail.Address: `{ Name, Address }`.
 */

export type MailpitAddress = { Name: string; Address: string };
export type MailpitSummary = { ID: string; Subject: string; To: MailpitAddress[] | null; Created: string };
export type MailpitMessage = { ID: string; Subject: string; HTML: string; Text: string };

/** The search for `email`'s messages, as the `query` parameter of /api/v1/search. */
export function mailpitQuery(email: string): string {
  return `to:"${email}"`;
}

/**
 * The IDs of the messages addressed to exactly `email` (the search matched a substring), newest
 * first: Mailpit sends them so; sorted again on `Created` so the order does not rest on that.
 */
export function messagesTo(email: string, search: { messages: MailpitSummary[] | null }): string[] {
  const wanted = email.toLowerCase();
  return (search.messages ?? [])
    .filter((m) => (m.To ?? []).some((to) => to.Address.toLowerCase() === wanted))
    .map((m, index) => ({ id: m.ID, at: Date.parse(m.Created), index }))
    .sort((a, b) => b.at - a.at || a.index - b.index)
    .map((m) => m.id);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * HTML character references as Go's html/template writes them into an attribute (the auth
 * server renders its e-mails with it): `&amp;`, `&#43;`, `&#39;`, `&#34;`, and hex ones.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/**
 * The link in an auth e-mail: the first `href` that leads to the site's confirm page
 * (`…/auth/confirm?token_hash=…&type=…&email=…`, supabase/templates/), with its character
 * references decoded. '' when the e-mail has none.
 */
export function confirmLink(html: string): string {
  return hrefs(html).find((href) => /\/auth\/confirm\?/.test(href)) ?? '';
}

/** Every `href` in an e-mail, decoded, in order. */
export function hrefs(html: string): string[] {
  return Array.from(html.matchAll(/href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi), (match) =>
    decodeEntities(match[1] ?? match[2] ?? '').trim(),
  );
}

/** The 6-digit code an auth e-mail carries (the templates print `{{ .Token }}` in bold); '' when none. */
export function mailCode(html: string): string {
  return /<strong>\s*(\d{6})\s*<\/strong>/.exec(html)?.[1] ?? '';
}

/** A Mailpit message as the e2e suite reads an e-mail: its subject, its link and its code. */
export function mailFromMessage(message: MailpitMessage): {
  subject: string;
  link: string;
  code: string;
  links: string[];
} {
  const html = message.HTML ?? '';
  return { subject: message.Subject, link: confirmLink(html), code: mailCode(html), links: hrefs(html) };
}
