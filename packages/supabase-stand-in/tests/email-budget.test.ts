// The project's hourly e-mail budget (email-budget.mjs, GoTrue's mail.go and IntervalLimiter)
// and what the purchase webhook does when it is spent: the sale is recorded and answered 200,
// the invitation waits as pending, and the scheduled run sends it once the budget frees, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailBudget } from '../email-budget.mjs';
import { LOCAL_FUNCTION_SECRETS } from '../functions/service.mjs';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../keys.mjs';
import { shopifyOrder, shopifyRequest } from '../../../supabase/functions/purchase-webhook/test-support.ts';
import { anonClient, readInbox, serviceClient, startStandIn, uniqueEmail, type StandIn } from './helpers';

const HOUR = 60 * 60 * 1000;

describe('createEmailBudget (GoTrue IntervalLimiter)', () => {
  it('allows email_sent e-mails per window, project-wide, and starts afresh once a whole hour has passed', () => {
    let now = 1_000_000;
    const budget = createEmailBudget({ perHour: 2, autoconfirm: false, now: () => now });
    expect([budget.spend(), budget.spend(), budget.spend()]).toEqual([true, true, false]);
    now += HOUR - 1;
    expect(budget.spend()).toBe(false);
    expect(budget.resetsAt()).toBe(1_000_000 + HOUR);
    now += 1;
    expect([budget.spend(), budget.spend(), budget.spend()]).toEqual([true, true, false]);
    // Not a sliding window: the next one starts at the boundary, not at the last e-mail.
    now += 2 * HOUR + 5;
    expect(budget.resetsAt()).toBe(1_000_000 + 4 * HOUR);
  });

  it('does not apply with autoconfirm (confirmations off), except that 0 refuses every e-mail', () => {
    const open = createEmailBudget({ perHour: 1, autoconfirm: true });
    expect([open.spend(), open.spend(), open.spend()]).toEqual([true, true, true]);
    expect(createEmailBudget({ perHour: 0, autoconfirm: true }).spend()).toBe(false);
    expect(() => createEmailBudget({ perHour: -1, autoconfirm: false })).toThrow(/whole number/);
  });
});

let now = Date.now();
let server: StandIn;
beforeAll(async () => {
  // The hosted posture (confirmations on, config.toml) with a budget of 2 e-mails an hour, and a
  // webhook without MAIL_API_KEY, so invitations go through Auth's own invite and its budget (as on
  // a `supabase start` stack; invitation-mail.test.ts has them through the mail API).
  server = await startStandIn({
    seedSampleFiles: false,
    authConfig: { emailSent: 2 },
    clock: () => now,
    functionEnv: { MAIL_API_KEY: '' },
  });
});
afterAll(async () => {
  await server?.close();
});

async function deliver(made: Request) {
  const res = await fetch(`${server.url}/functions/v1/purchase-webhook/shopify`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function sale(email: string, id: number, webhookId?: string) {
  return shopifyRequest('orders/paid', shopifyOrder({ id, email }), {
    secret: LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET,
    ...(webhookId ? { webhookId } : {}),
  });
}

/** The call Supabase Cron makes every minute (migration 20261126010000). */
async function scheduledRun(key = SERVICE_ROLE_KEY) {
  const res = await fetch(`${server.url}/functions/v1/purchase-webhook/invitations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function invitationOf(email: string) {
  const { data, error } = await serviceClient(server.url)
    .from('buyer_invitations')
    .select('status, last_error, attempts, sent_at')
    .eq('email', email)
    .single();
  if (error) throw error;
  return data as { status: string; last_error: string | null; attempts: number; sent_at: string | null };
}

let orderId = 9_000_000;

describe('the stand-in enforces the budget in the hosted posture', () => {
  it('spends it on every kind of auth e-mail, answers 429 with GoTrue’s body past it, and frees it after the hour', async () => {
    const admin = serviceClient(server.url);
    const a = uniqueEmail('budget-a');
    const b = uniqueEmail('budget-b');
    const c = uniqueEmail('budget-c');
    expect((await admin.auth.admin.inviteUserByEmail(a)).error).toBeNull();
    expect((await anonClient(server.url).auth.signUp({ email: b, password: 'secret123' })).error).toBeNull();

    const refused = await fetch(`${server.url}/auth/v1/invite`, {
      method: 'POST',
      headers: {
        apikey: SERVICE_ROLE_KEY,
        Authorization: `Bearer ${SERVICE_ROLE_KEY}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ email: c }),
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      code: 429,
      error_code: 'over_email_send_rate_limit',
      msg: 'email rate limit exceeded',
    });
    // Nothing was sent and no user was made (GoTrue rolls the invitation back).
    expect(await readInbox(server.url, c)).toEqual([]);
    const users = (await admin.auth.admin.listUsers({ perPage: 1000 })).data.users.map((u) => u.email);
    expect(users).not.toContain(c);
    // Project-wide: a password reset of another address is refused too.
    const reset = await anonClient(server.url).auth.resetPasswordForEmail(a);
    expect(reset.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });

    now += HOUR;
    expect((await admin.auth.admin.inviteUserByEmail(c)).error).toBeNull();
    expect(await readInbox(server.url, c)).toHaveLength(1);
    now += HOUR;
  });

  it('the webhook answers 200 while the budget is spent; the invitation waits and goes out once, when it frees', async () => {
    const admin = serviceClient(server.url);
    // Spend this hour's budget.
    expect((await admin.auth.admin.inviteUserByEmail(uniqueEmail('spend'))).error).toBeNull();
    expect((await admin.auth.admin.inviteUserByEmail(uniqueEmail('spend'))).error).toBeNull();

    const buyer = uniqueEmail('waiting-buyer');
    const id = (orderId += 1);
    const [first, second, third] = await Promise.all([
      deliver(await sale(buyer, id, `wh-${id}`)),
      deliver(await sale(buyer, id, `wh-${id}`)),
      deliver(await sale(buyer, id, `wh-${id}-again`)),
    ]);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect([first, second, third].filter((d) => d.body.outcome === 'recorded')).toHaveLength(1);
    expect([first, second, third].map((d) => d.body.invitation)).toContain('pending');
    expect(await invitationOf(buyer)).toMatchObject({
      status: 'pending',
      last_error: 'over_email_send_rate_limit: email rate limit exceeded',
    });
    expect(await readInbox(server.url, buyer)).toEqual([]);

    // Still spent: the scheduled run leaves it pending and sends nothing.
    expect(await scheduledRun()).toMatchObject({ status: 200, body: { sent: 0, pending: 1 } });
    // Only the service-role key starts a run.
    expect((await scheduledRun(ANON_KEY)).status).toBe(401);

    now += HOUR;
    expect(await scheduledRun()).toMatchObject({ status: 200, body: { due: 1, sent: 1 } });
    expect(await invitationOf(buyer)).toMatchObject({ status: 'sent', last_error: null });
    // A later run and a late duplicate delivery send nothing more: the first link is still good.
    expect(await scheduledRun()).toMatchObject({ status: 200, body: { due: 0 } });
    expect((await deliver(await sale(buyer, id, `wh-${id}`))).body).toMatchObject({
      outcome: 'duplicate',
      invitation: 'already_handled',
    });
    const mails = await readInbox(server.url, buyer);
    expect(mails).toHaveLength(1);
    const landed = await fetch(mails[0]?.link ?? '', { redirect: 'manual' });
    expect(landed.headers.get('location')).toContain('/auth/set-password#access_token=');
    expect(await invitationOf(buyer)).toMatchObject({ status: 'accepted' });
  });
});
