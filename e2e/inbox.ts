import type { Page } from '@playwright/test';
import { e2eEnv } from './env';
import { mailFromMessage, mailpitQuery, messagesTo, type MailpitMessage, type MailpitSummary } from './mailpit';

/** An auth e-mail: its subject, the link it carries (the site's confirm page) and its 6-digit code. */
export type Mail = { subject: string; link: string; code: string; links: string[] };

/** The confirm-page link in a mail read as text ("its words: its address"). */
function linkInText(body: string): string {
  return /https?:\/\/\S+\/auth\/confirm\?\S+/.exec(body)?.[0] ?? '';
}

/** Every address in a mail read as text. */
function addressesInText(body: string): string[] {
  return body.match(/https?:\/\/[^\s)]+/g) ?? [];
}

/**
 * The e-mails the auth server sent to `email`, newest first, with the link and code each
 * carries. The stand-in keeps them at GET /inbox (demo key in `apikey`); a `supabase start`
 * stack hands them to Mailpit (E2E_MAILPIT_URL, default its port 54324), read through its API
 * (e2e/mailpit.ts). Delivery to Mailpit is not instant: poll for a mail that should arrive.
 */
export async function readInbox(email: string, { reminders = false } = {}): Promise<Mail[]> {
  const mails = await readAllMail(email);
  return reminders ? mails : mails.filter((mail) => !isMemberReminder(mail.subject));
}

/**
 * The live programme's reminders and notices (supabase/functions/purchase-webhook/member-mail.ts):
 * any test's scheduled run sends them to every member holding a benefit, so a test counting a
 * member's other mails leaves them out.
 */
const MEMBER_REMINDER = /( starts in (1 hour|24 hours)| ends in \d+ days?)$|^(Cancelled|New time): /;

export function isMemberReminder(subject: string): boolean {
  return MEMBER_REMINDER.test(subject);
}

async function readAllMail(email: string): Promise<Mail[]> {
  if (e2eEnv.usingStandIn) {
    const res = await fetch(`${e2eEnv.supabaseUrl}/inbox?email=${encodeURIComponent(email)}`, {
      headers: { apikey: e2eEnv.anonKey },
    });
    if (!res.ok) throw new Error(`inbox: HTTP ${res.status}`);
    const body = (await res.json()) as { messages: Array<{ subject: string; body: string; otp: string }> };
    return body.messages.map((m) => ({
      subject: m.subject,
      link: linkInText(m.body),
      code: m.otp,
      links: addressesInText(m.body),
    }));
  }
  const mailpit = (process.env.E2E_MAILPIT_URL ?? 'http://127.0.0.1:54324').replace(/\/+$/, '');
  const getJson = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${mailpit}${path}`);
    if (!res.ok) throw new Error(`mailpit ${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const search = await getJson<{ messages: MailpitSummary[] | null }>(
    `/api/v1/search?query=${encodeURIComponent(mailpitQuery(email))}`,
  );
  const mails: Mail[] = [];
  for (const id of messagesTo(email, search)) {
    mails.push(mailFromMessage(await getJson<MailpitMessage>(`/api/v1/message/${encodeURIComponent(id)}`)));
  }
  return mails;
}

/** The confirm page's one button, whichever kind of mail it was opened from. */
const confirmButton = /^(Open my account|Confirm my address|Choose a new password|Confirm the change)$/;

/**
 * What the person does with a mail's link: open the site's confirm page and press its button
 * (opening it alone spends nothing).
 */
export async function openMailLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('button', { name: confirmButton }).click();
}
