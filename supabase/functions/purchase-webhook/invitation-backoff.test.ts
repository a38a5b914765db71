// A mail outage heals itself (docs/decisions/097-a-mail-outage-heals-itself.md): the provider's or
// Auth's 5xx, or no answer, leaves the invitation pending; the scheduled run tries it again once
// the backoff's wait (1, 5, 15, 60 minutes) has passed, and only the last try's outage fails it.
// The ledger is the in-memory store, with retry_invitation's and the claims' rules, on a clock the
// test moves (supabase/tests/invitation-backoff.test.ts holds the SQL to the same rules).
import { describe, expect, it } from 'vitest';
import { createWebhookHandler, INVITATION_BACKOFF_SECONDS, type LogEntry } from './handler.ts';
import { MAIL_PATH_REPORT_EVERY_MS } from './invitations.ts';
import { shopifyProvider } from './shopify.ts';
import { BASE, MemoryStore, SHOPIFY_SECRET, shopifyOrder, shopifyRequest } from './test-support.ts';
import type { InviteOutcome } from './types.ts';

const KEY = 'service-role-key';
const REDIRECT = 'https://site.test/auth/set-password';
const BUYER = 'buyer@example.com';
const OUTAGE: InviteOutcome = { kind: 'unavailable', reason: 'mail API 503 service_unavailable: try later' };

function setup() {
  const store = new MemoryStore();
  const logs: LogEntry[] = [];
  const handle = createWebhookHandler({
    providers: [shopifyProvider(SHOPIFY_SECRET)],
    store,
    inviteRedirectTo: REDIRECT,
    log: (entry) => logs.push(entry),
    // One clock for the function and the database, moved by the test.
    now: () => new Date(store.now),
    scheduleKey: KEY,
  });
  const deliver = async (id = 1, webhookId: string = crypto.randomUUID()) => {
    const res = await handle(await shopifyRequest('orders/paid', shopifyOrder({ id }), { webhookId }));
    return ((await res.json()) as { invitation?: string }).invitation;
  };
  const run = async () => {
    const res = await handle(
      new Request(`${BASE}/invitations`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}` }, body: '{}' }),
    );
    return (await res.json()) as Record<string, unknown>;
  };
  const invites = () => store.calls.filter((c) => c.kind === 'invite').length;
  const row = (email = BUYER) => store.invitations.get(email);
  const later = (seconds: number) => {
    store.now += seconds * 1000;
  };
  return { store, logs, deliver, run, invites, row, later };
}

describe('a mail outage', () => {
  it('leaves the invitation pending for a minute; the scheduled run sends it once that has passed', async () => {
    const { store, logs, deliver, run, invites, row, later } = setup();
    store.inviteAnswer = OUTAGE;
    const start = store.now;
    expect(await deliver()).toBe('pending');
    expect(row()).toMatchObject({
      status: 'pending',
      retries: 1,
      nextAttemptAt: start + 60_000,
      lastError: OUTAGE.reason,
    });
    expect(store.calls).toContainEqual({
      kind: 'retry',
      email: BUYER,
      reason: OUTAGE.reason,
      backoffSeconds: INVITATION_BACKOFF_SECONDS,
    });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'invitation pending',
        reason: OUTAGE.reason,
        nextAttemptAt: new Date(start + 60_000).toISOString(),
        retries: 1,
      }),
    );

    // The provider is back. Before the minute is up nothing is tried, not by the schedule and
    // not by another delivery for the same buyer.
    store.inviteAnswer = { kind: 'invited' };
    later(59);
    expect(await run()).toMatchObject({ due: 0 });
    expect(await deliver(2)).toBe('already_handled');
    expect(invites()).toBe(1);
    later(1);
    expect(await run()).toMatchObject({ due: 1, sent: 1 });
    expect(row()).toMatchObject({ status: 'sent', retries: 0, nextAttemptAt: null });
    expect(invites()).toBe(2);
    // Sent and good: nothing sends it again.
    later(600);
    expect(await run()).toMatchObject({ due: 0 });
    expect(await deliver(3)).toBe('already_handled');
    expect(invites()).toBe(2);
  });

  it('is tried again after 1, 5, 15 and 60 minutes; the fifth try’s outage fails it, with the reason', async () => {
    const { store, deliver, run, invites, row, later } = setup();
    store.inviteAnswer = OUTAGE;
    expect(await deliver()).toBe('pending');
    const waits = [60, 300, 900, 3600];
    for (const [step, wait] of waits.entries()) {
      later(wait - 1);
      expect(await run(), `${wait - 1} s after try ${step + 1}`).toMatchObject({ due: 0 });
      later(1);
      const last = step === waits.length - 1;
      expect(await run(), `try ${step + 2}`).toMatchObject(last ? { due: 1, failed: 1 } : { due: 1, pending: 1 });
      expect(row()).toMatchObject({ retries: step + 2, status: last ? 'failed' : 'pending' });
    }
    expect(invites()).toBe(5);
    expect(row()).toMatchObject({ status: 'failed', nextAttemptAt: null, lastError: OUTAGE.reason, attempts: 5 });
    // Failed is final for the schedule.
    later(86_400);
    expect(await run()).toMatchObject({ due: 0 });
    expect(invites()).toBe(5);
  });

  it('staff’s "Send again" resets the backoff at any time: the next run sends it', async () => {
    const { store, deliver, run, invites, row, later } = setup();
    store.inviteAnswer = OUTAGE;
    await deliver();
    later(60);
    await run();
    expect(row()).toMatchObject({ status: 'pending', retries: 2 });
    // Five minutes to wait, but staff send it again now.
    store.resend(BUYER);
    store.inviteAnswer = { kind: 'invited' };
    expect(await run()).toMatchObject({ due: 1, sent: 1 });
    expect(invites()).toBe(3);
    // Failed for good, then sent again by staff: a whole new series.
    const other = setup();
    other.store.inviteAnswer = OUTAGE;
    await other.deliver();
    for (const wait of [60, 300, 900, 3600]) {
      other.later(wait);
      await other.run();
    }
    expect(other.row()).toMatchObject({ status: 'failed', retries: 5 });
    other.store.resend(BUYER);
    expect(await other.run()).toMatchObject({ due: 1, pending: 1 });
    expect(other.row()).toMatchObject({ status: 'pending', retries: 1, nextAttemptAt: other.store.now + 60_000 });
  });

  it('a network error (inviteBuyer throws) is an outage too; a refusal (4xx) fails at once', async () => {
    const { store, deliver, row } = setup();
    store.inviteAnswer = new Error('fetch failed: ECONNRESET');
    expect(await deliver()).toBe('pending');
    expect(row()).toMatchObject({ status: 'pending', retries: 1, lastError: 'fetch failed: ECONNRESET' });

    const refused = setup();
    refused.store.inviteAnswer = { kind: 'failed', reason: 'mail API 403 invalid_api_key: API key is invalid.' };
    expect(await refused.deliver()).toBe('failed');
    expect(refused.row()).toMatchObject({ status: 'failed', retries: 0, nextAttemptAt: null });
    expect(refused.store.calls.some((c) => c.kind === 'retry')).toBe(false);
  });

  it('stops the scheduled batch at the first outage: the rest go back to pending, due next run, no retry counted', async () => {
    const { store, run, invites } = setup();
    for (const n of [1, 2, 3]) store.invitations.set(`b${n}@example.com`, { ...queuedRow() });
    store.inviteAnswer = OUTAGE;
    expect(await run()).toEqual({ ok: true, due: 3, sent: 0, accepted: 0, pending: 3, failed: 0 });
    expect(invites()).toBe(1);
    expect([...store.invitations].map(([email, r]) => [email, r.status, r.retries, r.nextAttemptAt !== null])).toEqual([
      ['b1@example.com', 'pending', 1, true],
      ['b2@example.com', 'pending', 0, false],
      ['b3@example.com', 'pending', 0, false],
    ]);
    // The provider is back: the next run sends the two that were not tried; the first waits its minute.
    store.inviteAnswer = { kind: 'invited' };
    expect(await run()).toMatchObject({ due: 2, sent: 2 });
  });

  it('a 429 is not an outage: pending, due at the next run, and it does not spend the backoff', async () => {
    const { store, deliver, run, row } = setup();
    store.inviteAnswer = { kind: 'rate_limited', reason: 'mail API 429 rate_limit_exceeded: slow down' };
    expect(await deliver()).toBe('pending');
    expect(row()).toMatchObject({ status: 'pending', retries: 0, nextAttemptAt: null });
    expect(await run()).toMatchObject({ due: 1, pending: 1 });
    store.inviteAnswer = OUTAGE;
    expect(await run()).toMatchObject({ due: 1, pending: 1 });
    expect(row()).toMatchObject({ retries: 1, nextAttemptAt: store.now + 60_000 });
  });

  it('never sends two invitations to one buyer: overlapping runs and deliveries once it is due', async () => {
    const { store, deliver, run, invites, later } = setup();
    store.inviteAnswer = OUTAGE;
    await deliver();
    store.inviteAnswer = { kind: 'invited' };
    later(60);
    const answers = await Promise.all([run(), run(), deliver(2), deliver(1), run()]);
    expect(invites()).toBe(2);
    expect(answers.filter((a) => a === 'invited' || (typeof a === 'object' && a.sent === 1))).toHaveLength(1);
  });
});

describe('which way invitations go, for the staff dashboard', () => {
  it('is recorded when an invitation is sent and on the scheduled run, at most every 10 minutes', async () => {
    const { store, deliver, run, later } = setup();
    store.invitesViaAuth = true;
    const reports = () => store.calls.filter((c) => c.kind === 'mail_path');
    await deliver(1);
    expect(reports()).toEqual([{ kind: 'mail_path', viaAuth: true }]);
    await deliver(2, 'again');
    await run();
    expect(reports()).toHaveLength(1);
    later(MAIL_PATH_REPORT_EVERY_MS / 1000);
    // The schedule reports even when nothing is due.
    expect(await run()).toMatchObject({ due: 0 });
    expect(reports()).toHaveLength(2);
  });

  it('a failure to record it is logged, and the invitation goes out all the same', async () => {
    const { store, logs, deliver } = setup();
    store.recordMailPath = async () => {
      throw new Error('record_mail_path failed: function does not exist');
    };
    expect(await deliver()).toBe('invited');
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', message: 'mail path not recorded' }));
  });
});

function queuedRow() {
  return { status: 'pending', claimId: null, attempts: 0, retries: 0, nextAttemptAt: null, lastError: null } as const;
}
