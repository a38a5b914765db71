// The members' reminders and notices (migration 20261208010000): access ending in 14, 7 and 1
// days, a live session in 24 hours and in 1 hour, a session cancelled or moved. Supabase Cron
// calls `…/purchase-webhook/member-mail` every five minutes with the service-role key; the
// database enqueues what is due (once per dedupe key) and hands out the mails to send, which go
// through the mail API with that key as Idempotency-Key, and wait out an outage on the
// invitations' backoff. See docs/decisions/102-live-sessions-and-access-with-an-end.md.
import { formatSessionStart } from '../_shared/calendar.ts';
import { sameSecret } from '../_shared/same-secret.ts';
import { json, type LogEntry } from './http.ts';
import { INVITATION_BACKOFF_SECONDS } from './invitations.ts';
import { escapeHtml, sendMail, type MailApi } from './mail.ts';
import { WebhookError } from './types.ts';

/** A claimed mail, as claim_member_mail answers it. */
export type MemberMailRow = { id: string; email: string; kind: string; dedupe_key: string; payload: Payload };
type Payload = Record<string, unknown>;

type Rpc = (
  fn: string,
  args: Record<string, unknown>,
) => PromiseLike<{ data: unknown; error: { message: string } | null }>;

export type MemberMailOptions = {
  rpc: Rpc;
  /** Null: no mail API configured; the mails wait (Auth's own mail sends invitations only). */
  mailApi: MailApi | null;
  siteUrl: string;
  log: (entry: LogEntry) => void;
  /** The bearer the scheduled run must send; unset, the route is 404. */
  scheduleKey?: string;
  fetch?: typeof fetch;
  backoffSeconds?: readonly number[];
};

/** Mails one run takes (it runs every five minutes). */
export const MEMBER_MAIL_BATCH = 100;

/** The scheduled run: enqueue what is due, send what is claimed, answer the counts. */
export async function runMemberMail(options: MemberMailOptions, req: Request): Promise<Response> {
  const key = options.scheduleKey;
  if (!key) throw new WebhookError(404, 'not found');
  const bearer = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!sameSecret(bearer, key)) throw new WebhookError(401, 'the scheduled run needs the service-role key');
  await req.body?.cancel();
  if (!options.mailApi) {
    options.log({ level: 'warn', message: 'member mail waits: MAIL_API_KEY is not set' });
    return json(200, { ok: true, sent: 0, waiting: 'no mail API' });
  }
  const { data, error } = await options.rpc('claim_member_mail', { p_limit: MEMBER_MAIL_BATCH });
  if (error) throw new Error(`claim_member_mail failed: ${error.message}`);
  const counts = { sent: 0, retry: 0, failed: 0 };
  for (const row of Array.isArray(data) ? (data as MemberMailRow[]) : []) {
    const mail = { to: row.email, ...memberMailContent(row, options.siteUrl) };
    const result = await sendMail(options.mailApi, mail, { idempotencyKey: row.dedupe_key, fetch: options.fetch });
    // An outage (no answer, 5xx, 429) is tried again later; any other refusal will not change.
    const outcome = result.ok
      ? 'sent'
      : result.status === 0 || result.status >= 500 || result.status === 429
        ? 'retry'
        : 'failed';
    const finished = await options.rpc('finish_member_mail', {
      p_id: row.id,
      p_outcome: outcome,
      p_error: result.ok ? null : `${result.status} ${result.name}: ${result.message}`,
      p_backoff_seconds: [...(options.backoffSeconds ?? INVITATION_BACKOFF_SECONDS)],
    });
    if (finished.error) throw new Error(`finish_member_mail failed: ${finished.error.message}`);
    counts[outcome] += 1;
  }
  options.log({ level: 'info', message: 'member mail run', ...counts });
  return json(200, { ok: true, ...counts });
}

/** The mail's subject, HTML and text, from its kind and the fields the database wrote. */
export function memberMailContent(row: Pick<MemberMailRow, 'kind' | 'payload'>, siteUrl: string) {
  const p = row.payload;
  const zone = typeof p.time_zone === 'string' ? p.time_zone : 'UTC';
  const when = (field: string) => (typeof p[field] === 'string' ? formatSessionStart(p[field] as string, zone) : '');
  const page = `${siteUrl}/resources`;
  const title = String(p.title ?? '');
  const label = String(p.label ?? '').toLowerCase();
  const lines = ((): [string, ...string[]] => {
    switch (row.kind) {
      case 'access_ends':
        return [
          `Your ${label} ends in ${p.days} ${p.days === 1 ? 'day' : 'days'}`,
          `Your ${label} lasts until ${when('ends_at')}.`,
          `To continue after that, reply to this e-mail or see ${siteUrl}/bundles.`,
        ];
      case 'session_soon':
        return [
          `${title} starts in ${p.hours === 1 ? '1 hour' : '24 hours'}`,
          `${title} (${p.label}) starts ${when('starts_at')} and lasts ${p.minutes} minutes.`,
          `The join link appears on your page 15 minutes before the start: ${page}`,
        ];
      case 'session_cancelled':
        return [`Cancelled: ${title}`, `${title} on ${when('starts_at')} is cancelled. We are sorry for the change.`];
      default:
        return [
          `New time: ${title}`,
          `${title} moves from ${when('old_starts_at')} to ${when('starts_at')}.`,
          `Your page shows it in your own time zone: ${page}`,
        ];
    }
  })();
  const [subject, ...body] = lines;
  const close = `The Yes, You Can! team · ${siteUrl}`;
  const text = [...body, close].join('\n\n');
  const html = [...body, close].map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');
  return { subject, text, html };
}
