// A mail outage heals itself (migration 20261128030000, docs/decisions/097-a-mail-outage-heals-itself.md):
// retry_invitation leaves a claimed invitation pending until the backoff step the function passes
// has passed, then failed after the last step; neither claim takes a pending invitation before its
// next attempt is due, nor does the schedule take a failed one; staff "Send again" starts over.
// And the webhook's mail path, which staff read through staff_mail_status().
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { serverAt } from '../../packages/supabase-stand-in/test-servers/pg-server.mjs';
import { INVITATION_BACKOFF_SECONDS } from '../functions/purchase-webhook/invitations.ts';
import { anonClaims, attempt, demo, serviceClaims, userClaims, type Row } from './helpers';
import { createServerDatabase, type Database } from './server-database';
import type { Claims } from '../../packages/supabase-stand-in/db.mjs';

let db: Database;
const pool: pg.Client[] = [];

beforeAll(async () => {
  db = await createServerDatabase();
  const server = serverAt(inject('postgres'));
  for (let i = 0; i < 6; i++) {
    const client = new pg.Client(server.connection((db as unknown as { name: string }).name));
    await client.connect();
    pool.push(client);
  }
});

afterAll(async () => {
  await Promise.all(pool.map((c) => c.end()));
  await db?.close();
});

const freshEmail = (label: string) => `${label}-${randomUUID()}@example.com`;
const BACKOFF = [...INVITATION_BACKOFF_SECONDS];
const staff = userClaims(demo.staff, 'staff@example.com');
const member = userClaims(demo.ebook, 'ebook@example.com');

async function as(claims: Claims | null, sql: string, params: unknown[] = []): Promise<Row[]> {
  const outcome = await attempt(db, claims, sql, params, { rollback: false, operation: null });
  if (!outcome.ok) throw Object.assign(new Error(outcome.error), { code: outcome.code });
  return outcome.rows;
}

async function refusal(claims: Claims | null, sql: string, params: unknown[] = []) {
  const outcome = await attempt(db, claims, sql, params, { rollback: false, operation: null });
  return outcome.ok ? 'allowed' : outcome.code;
}

/** A buyer's invitation queued by a sale without an account, as the purchases trigger makes it. */
async function queued(email: string) {
  await as(
    serviceClaims,
    `select public.record_purchase('shopify', $1, $2, $3, 'Foundation', 'foundation', 4900, 'USD', now())`,
    [`evt-${randomUUID()}`, `order-${randomUUID()}`, email],
  );
}

const claim = async (email: string) =>
  (await as(serviceClaims, `select public.claim_invitation($1) as claim`, [email]))[0]?.claim as string | null;

/** The scheduled run's claim, limited to the given addresses (other files' rows are not ours). */
async function dueNow(...emails: string[]): Promise<Record<string, string>> {
  const rows = await as(serviceClaims, `select email, claim_id from public.claim_due_invitations(1000)`);
  const mine = rows.filter((r) => emails.includes(r.email as string));
  return Object.fromEntries(mine.map((r) => [r.email, r.claim_id]));
}

const retry = async (email: string, claimId: string, backoff: number[] = BACKOFF) =>
  (
    await as(
      serviceClaims,
      `select public.retry_invitation($1, $2, 'mail API 503 service_unavailable: down', $3) as r`,
      [email, claimId, backoff],
    )
  )[0]?.r as { status: string; next_attempt_at: string | null; retries: number } | null;

async function row(email: string) {
  return (
    await db.query<Row>(
      `select status, attempts, retries, last_error, next_attempt_at is not null as waits,
              extract(epoch from next_attempt_at - now())::float8 as wait_seconds
       from public.buyer_invitations where email = $1`,
      [email],
    )
  ).rows[0];
}

/** Moves the invitation's next attempt to now, as the passing of its wait would. */
async function waitOver(email: string) {
  await db.query(`update public.buyer_invitations set next_attempt_at = now() - interval '1 second' where email = $1`, [
    email,
  ]);
}

describe('the backoff after a mail outage', () => {
  it('the function’s backoff is 1, 5, 15 and 60 minutes', () => {
    expect(BACKOFF).toEqual([60, 300, 900, 3600]);
  });

  it('retry_invitation: pending until the step has passed; neither claim takes it before', async () => {
    const email = freshEmail('outage');
    await queued(email);
    const first = (await claim(email)) as string;
    const answer = await retry(email, first);
    expect(answer).toMatchObject({ status: 'pending', retries: 1 });
    const now = Date.now();
    expect(Date.parse(answer?.next_attempt_at ?? '') - now).toBeGreaterThan(50_000);
    expect(Date.parse(answer?.next_attempt_at ?? '') - now).toBeLessThanOrEqual(61_000);
    const waiting = await row(email);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, retries: 1, waits: true });
    expect(waiting?.last_error).toBe('mail API 503 service_unavailable: down');
    expect(waiting?.wait_seconds).toBeGreaterThan(50);
    // Not due: the schedule passes it by, and so does a later delivery for the same buyer.
    expect(await dueNow(email)).toEqual({});
    expect(await claim(email)).toBeNull();
    expect(await row(email)).toMatchObject({ status: 'pending', attempts: 1 });
    // Its minute is up: the schedule takes it, once.
    await waitOver(email);
    const due = await dueNow(email);
    expect(Object.keys(due)).toEqual([email]);
    expect(await dueNow(email)).toEqual({});
    expect(await row(email)).toMatchObject({ status: 'sending', attempts: 2, retries: 1, waits: false });
  });

  it('steps through the backoff and fails after the last step, with the reason; failed is not due', async () => {
    const email = freshEmail('steps');
    await queued(email);
    let claimId = (await claim(email)) as string;
    for (const [step, seconds] of BACKOFF.entries()) {
      const answer = await retry(email, claimId);
      expect(answer).toMatchObject({ status: 'pending', retries: step + 1 });
      const { wait_seconds } = (await row(email)) as { wait_seconds: number };
      expect(wait_seconds).toBeGreaterThan(seconds - 10);
      expect(wait_seconds).toBeLessThanOrEqual(seconds);
      await waitOver(email);
      claimId = (await dueNow(email))[email] as string;
      expect(claimId).toEqual(expect.any(String));
    }
    expect(await retry(email, claimId)).toEqual({ status: 'failed', next_attempt_at: null, retries: 5 });
    expect(await row(email)).toMatchObject({
      status: 'failed',
      attempts: 5,
      retries: 5,
      waits: false,
      last_error: 'mail API 503 service_unavailable: down',
    });
    expect(await dueNow(email)).toEqual({});
  });

  it('only the claim’s holder records an outage; the backoff must be sane', async () => {
    const email = freshEmail('holder');
    await queued(email);
    const claimId = (await claim(email)) as string;
    expect(await retry(email, randomUUID())).toBeNull();
    expect(await row(email)).toMatchObject({ status: 'sending', retries: 0 });
    for (const bad of [[0], [-5], [86_401], Array.from({ length: 21 }, () => 60)]) {
      await expect(retry(email, claimId, bad)).rejects.toMatchObject({ code: '22023' });
    }
    await expect(
      as(serviceClaims, `select public.retry_invitation($1, $2, 'x', null)`, [email, claimId]),
    ).rejects.toMatchObject({ code: '22023' });
    // No step at all: the first outage fails it.
    expect(await retry(email, claimId, [])).toMatchObject({ status: 'failed', retries: 1 });
  });

  it('a 429 (finish pending) is due at the next run and keeps the retries; a sent one has none left', async () => {
    const email = freshEmail('budget');
    await queued(email);
    const first = (await claim(email)) as string;
    await retry(email, first);
    await waitOver(email);
    const second = (await dueNow(email))[email] as string;
    await as(serviceClaims, `select public.finish_invitation($1, $2, 'pending', 'mail API 429 rate_limit_exceeded')`, [
      email,
      second,
    ]);
    expect(await row(email)).toMatchObject({ status: 'pending', retries: 1, waits: false });
    const third = (await dueNow(email))[email] as string;
    expect(third).toEqual(expect.any(String));
    // The next outage is the second step: five minutes.
    expect(await retry(email, third)).toMatchObject({ status: 'pending', retries: 2 });
    expect(((await row(email)) as { wait_seconds: number }).wait_seconds).toBeGreaterThan(290);
    await waitOver(email);
    const fourth = (await dueNow(email))[email] as string;
    await as(serviceClaims, `select public.finish_invitation($1, $2, 'sent', null)`, [email, fourth]);
    expect(await row(email)).toMatchObject({ status: 'sent', retries: 0, waits: false });
  });

  it('staff "Send again" starts over at any time: due now, no retries', async () => {
    const waiting = freshEmail('resend-waiting');
    const failed = freshEmail('resend-failed');
    for (const email of [waiting, failed]) await queued(email);
    await retry(waiting, (await claim(waiting)) as string);
    await retry(failed, (await claim(failed)) as string, []);
    expect(await row(failed)).toMatchObject({ status: 'failed' });
    for (const email of [waiting, failed]) {
      expect(await as(staff, `select public.staff_resend_invitation($1) as s`, [email])).toEqual([{ s: 'pending' }]);
      expect(await row(email)).toMatchObject({
        status: 'pending',
        attempts: 0,
        retries: 0,
        waits: false,
        last_error: null,
      });
    }
    expect(Object.keys(await dueNow(waiting, failed)).sort()).toEqual([waiting, failed].sort());
  });

  it('a new delivery may claim a failed invitation, as a new series of tries', async () => {
    const email = freshEmail('new-series');
    await queued(email);
    await retry(email, (await claim(email)) as string, []);
    expect(await row(email)).toMatchObject({ status: 'failed', retries: 1 });
    expect(await claim(email)).toEqual(expect.any(String));
    expect(await row(email)).toMatchObject({ status: 'sending', retries: 0 });
  });

  it('never two claims: the schedule and deliveries racing for a due invitation get exactly one', async () => {
    const email = freshEmail('race');
    await queued(email);
    await retry(email, (await claim(email)) as string);
    await waitOver(email);
    const claims = await Promise.all(
      pool.map(async (client, i) => {
        await client.query('begin');
        await client.query(`select set_config('role', 'service_role', true)`);
        const sql =
          i % 2
            ? `select claim_id as c from public.claim_due_invitations(1000) where email = $1`
            : `select public.claim_invitation($1) as c`;
        const { rows } = await client.query<{ c: string | null }>(sql, [email]);
        await client.query('commit');
        return rows[0]?.c ?? null;
      }),
    );
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
  });

  it('retry_invitation is the service role’s only', async () => {
    const args = [freshEmail('x'), randomUUID(), 'r', [60]];
    const sql = `select public.retry_invitation($1, $2, $3, $4)`;
    expect(await refusal(anonClaims, sql, args)).toBe('42501');
    expect(await refusal(member, sql, args)).toBe('42501');
    expect(await refusal(staff, sql, args)).toBe('42501');
  });
});

describe('staff_mail_status: does the webhook invite through Auth?', () => {
  const status = async () =>
    (await as(staff, `select public.staff_mail_status() as s`))[0]?.s as Record<string, unknown>;
  const report = (viaAuth: boolean) => as(serviceClaims, `select public.record_mail_path($1)`, [viaAuth]);

  it('is all null until the webhook reports; then says which way, since when and when last seen', async () => {
    expect(await status()).toEqual({ invites_via_auth: null, since: null, last_seen: null });
    await report(true);
    const first = await status();
    expect(first).toMatchObject({ invites_via_auth: true });
    expect(first.since).toBe(first.last_seen);
    // Make the first report an hour old, then the same answer again: since stays, last_seen moves.
    await db.query(
      `update private.mail_status set since = since - interval '1 hour', last_seen = last_seen - interval '1 hour'`,
    );
    await report(true);
    const again = await status();
    expect(Date.parse(again.last_seen as string) - Date.parse(again.since as string)).toBeGreaterThan(3_500_000);
    // The key is set: the next report turns it off, since now.
    await report(false);
    const fixed = await status();
    expect(fixed).toMatchObject({ invites_via_auth: false });
    expect(fixed.since).toBe(fixed.last_seen);
  });

  it('staff only read it; only the service role writes it; nobody reads the table directly', async () => {
    const read = `select public.staff_mail_status()`;
    expect(await refusal(member, read)).toBe('42501');
    expect(await refusal(anonClaims, read)).toBe('42501');
    expect(await refusal(serviceClaims, read)).toBe('42501');
    const write = `select public.record_mail_path(true)`;
    expect(await refusal(staff, write)).toBe('42501');
    expect(await refusal(anonClaims, write)).toBe('42501');
    for (const claims of [staff, member, anonClaims]) {
      expect(await refusal(claims, `select * from private.mail_status`)).toBe('42501');
    }
  });
});
