import { e2eEnv } from './env';
import { mailFromMessage, mailpitQuery, messagesTo, type MailpitMessage, type MailpitSummary } from './mailpit';

export type Mail = { subject: string; link: string };

/**
 * The e-mails the auth server sent to `email`, newest first, with the verify link each
 * carries. The stand-in keeps them at GET /inbox (demo key in `apikey`); a `supabase start`
 * stack hands them to Mailpit (E2E_MAILPIT_URL, default its port 54324), read through its API
 * (e2e/mailpit.ts). Delivery to Mailpit is not instant: poll for a mail that should arrive.
 */
export async function readInbox(email: string): Promise<Mail[]> {
  if (e2eEnv.usingStandIn) {
    const res = await fetch(`${e2eEnv.supabaseUrl}/inbox?email=${encodeURIComponent(email)}`, {
      headers: { apikey: e2eEnv.anonKey },
    });
    if (!res.ok) throw new Error(`inbox: HTTP ${res.status}`);
    const body = (await res.json()) as { messages: Array<{ subject: string; link: string }> };
    return body.messages.map(({ subject, link }) => ({ subject, link }));
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
