// @ts-check
// The stand-in's Supabase Cron: what migration 20261126010000 schedules on a hosted project
// (pg_cron every minute, pg_net POSTing to the purchase webhook's `invitations` path with the
// service-role key, only while an invitation waits). The stand-in's engine has neither
// extension, so `npm run supabase:local` (server.mjs --cron) runs the same call on a timer of its
// own; tests, the e2e stand-in and the launch benchmark make the call themselves
// (runInvitationSchedule) when they choose to. The same timer makes migration 20261128020000's
// daily call, the download function's `expire` route (stamped copies not downloaded for 90 days),
// and, hourly from the start, migration 20261128040000's SQL job: private.roll_up_visits() (the
// visit counts of ended days into the roll-up, raw counts kept 30 days, ended days' salts gone)
// and, every five minutes, migration 20261208010000's call to the purchase webhook's member-mail
// route (the members' reminders and notices).
import { SERVICE_ROLE_KEY } from './keys.mjs';

/** The path the schedule calls (hosted: `<project url>/functions/v1/purchase-webhook/invitations`). */
export const INVITATION_SCHEDULE_PATH = '/functions/v1/purchase-webhook/invitations';

/** pg_cron's `* * * * *`. */
export const SCHEDULE_EVERY_MS = 60_000;

/** The daily job's path (hosted: `<project url>/functions/v1/download/expire`). */
export const EXPIRY_SCHEDULE_PATH = '/functions/v1/download/expire';

/** pg_cron's daily `17 3 * * *`, as an interval from the stand-in's start. */
export const EXPIRY_EVERY_MS = 86_400_000;

/** The members' reminders' path (hosted: `<project url>/functions/v1/purchase-webhook/member-mail`). */
export const MEMBER_MAIL_SCHEDULE_PATH = '/functions/v1/purchase-webhook/member-mail';

/** pg_cron's five-minute job (migration 20261208010000), as an interval from the stand-in's start. */
export const MEMBER_MAIL_EVERY_MS = 300_000;

/** pg_cron's hourly `7 * * * *`, as an interval from the stand-in's start. */
export const ROLL_UP_EVERY_MS = 3_600_000;

/** The hourly job, pure SQL as pg_cron runs it. */
export const ROLL_UP_SQL = 'select private.roll_up_visits() as result';

/**
 * Runs the visits' roll-up once, as pg_cron does, and answers what it did.
 * @param {{ query: (sql: string) => Promise<{ rows: any[] }> }} db  the stand-in's database (as its owner)
 * @returns {Promise<Record<string, unknown>>}
 */
export async function runVisitRollUp(db) {
  const { rows } = await db.query(ROLL_UP_SQL);
  return rows[0]?.result ?? {};
}

/** The job's condition (as migration 20261128030000's): an invitation claim_due_invitations would take. */
const WAITING_SQL = `select exists (select 1 from public.buyer_invitations
  where (status = 'pending' and (attempts = 0 or next_attempt_at is null or next_attempt_at <= now()))
     or (status = 'sending' and claimed_at < now() - interval '10 minutes')) as waiting`;

/**
 * Makes a scheduled call once, as pg_net does, and answers the function's JSON.
 * @param {string} baseUrl  the stand-in's URL
 * @param {string} path  the job's path
 * @returns {Promise<{ status: number, body: Record<string, unknown> }>}
 */
async function runSchedule(baseUrl, path) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    body: '{}',
  });
  const text = await res.text();
  /** @type {Record<string, unknown>} */
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

/** The invitations' call, once. @param {string} baseUrl */
export const runInvitationSchedule = (baseUrl) => runSchedule(baseUrl, INVITATION_SCHEDULE_PATH);

/** The stamped copies' expiry call, once. @param {string} baseUrl */
export const runExpirySchedule = (baseUrl) => runSchedule(baseUrl, EXPIRY_SCHEDULE_PATH);

/** The members' reminders' call, once. @param {string} baseUrl */
export const runMemberMailSchedule = (baseUrl) => runSchedule(baseUrl, MEMBER_MAIL_SCHEDULE_PATH);

/**
 * Runs the schedule every minute while an invitation waits (never two runs at once). Returns a
 * function that stops it.
 * @param {{ baseUrl: string, db: { query: (sql: string) => Promise<{ rows: any[] }> },
 *   log: (message: string) => void, everyMs?: number }} options
 * @returns {() => void}
 */
export function startLocalCron({ baseUrl, db, log, everyMs = SCHEDULE_EVERY_MS }) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void (async () => {
      try {
        const { rows } = await db.query(WAITING_SQL);
        if (!rows[0]?.waiting) return;
        const { status, body } = await runInvitationSchedule(baseUrl);
        log(`[local cron] purchase-webhook/invitations: ${status} ${JSON.stringify(body)}`);
      } catch (err) {
        log(`[local cron] purchase-webhook/invitations failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        running = false;
      }
    })();
  }, everyMs);
  timer.unref();
  const daily = setInterval(() => {
    runExpirySchedule(baseUrl).then(
      ({ status, body }) => log(`[local cron] download/expire: ${status} ${JSON.stringify(body)}`),
      (err) => log(`[local cron] download/expire failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }, EXPIRY_EVERY_MS);
  daily.unref();
  const hourly = setInterval(() => {
    runVisitRollUp(db).then(
      (result) => log(`[local cron] roll_up_visits: ${JSON.stringify(result)}`),
      (err) => log(`[local cron] roll_up_visits failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }, ROLL_UP_EVERY_MS);
  hourly.unref();
  const reminders = setInterval(() => {
    runMemberMailSchedule(baseUrl).then(
      ({ status, body }) => log(`[local cron] purchase-webhook/member-mail: ${status} ${JSON.stringify(body)}`),
      (err) => log(`[local cron] member-mail failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }, MEMBER_MAIL_EVERY_MS);
  reminders.unref();
  return () => {
    clearInterval(reminders);
    clearInterval(timer);
    clearInterval(daily);
    clearInterval(hourly);
  };
}
