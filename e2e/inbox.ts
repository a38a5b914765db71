import { e2eEnv } from './env';

export type Mail = { subject: string; link: string };

/**
 * The e-mails the auth server sent to `email`, newest first, with the verify link each
 * carries. The stand-in keeps them at GET /inbox (demo key in `apikey`); a `supabase start`
 * stack hands them to Mailpit (E2E_MAILPIT_URL, default its port 54324).
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
  const mailpit = process.env.E2E_MAILPIT_URL ?? 'http://127.0.0.1:54324';
  const found = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`);
  if (!found.ok) throw new Error(`mailpit: HTTP ${found.status}`);
  const { messages } = (await found.json()) as { messages: Array<{ ID: string; Subject: string }> };
  const mails: Mail[] = [];
  for (const message of messages) {
    const full = (await (await fetch(`${mailpit}/api/v1/message/${message.ID}`)).json()) as { HTML: string };
    const href = /href="([^"]*\/auth\/v1\/verify[^"]*)"/.exec(full.HTML)?.[1] ?? '';
    mails.push({ subject: message.Subject, link: href.replaceAll('&amp;', '&') });
  }
  return mails;
}
