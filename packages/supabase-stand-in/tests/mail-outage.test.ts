// A mail outage heals itself (docs/decisions/097-a-mail-outage-heals-itself.md), through the
// stand-in: its mail API answers 503 (the test-only `POST /mail/outage`), the buyer's invitation
// waits as pending with its next attempt a minute away, the schedule leaves it until then, and
// once it is due the schedule sends it: exactly one mail in the inbox. The webhook also says which
// way it invites, for the staff dashboard (staff_mail_status).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInvitationSchedule } from '../cron.mjs';
import { LOCAL_FUNCTION_SECRETS, LOCAL_MAIL_API } from '../functions/service.mjs';
import { shopifyOrder, shopifyRequest } from '../../../supabase/functions/purchase-webhook/test-support.ts';
import { readInbox, serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
});
afterAll(async () => {
  await server?.close();
});

/** The stand-in's outage control: the next `requests` calls of POST /mail/emails answer 503. */
async function outage(requests: unknown, key: string | null = LOCAL_MAIL_API.key) {
  const res = await fetch(`${server.url}${LOCAL_MAIL_API.path}/outage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
    body: JSON.stringify({ requests }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function send(to: string) {
  const res = await fetch(`${server.url}${LOCAL_MAIL_API.path}/emails`, {
    method: 'POST',
    headers: { authorization: `Bearer ${LOCAL_MAIL_API.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ from: LOCAL_MAIL_API.from, to, subject: 'Hello', html: '<p>Hi</p>' }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function deliver(email: string, id: number) {
  const made = await shopifyRequest('orders/paid', shopifyOrder({ id, email }), {
    secret: LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET,
  });
  const res = await fetch(`${server.url}/functions/v1/purchase-webhook/shopify`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function invitation(email: string) {
  const { data, error } = await serviceClient(server.url)
    .from('buyer_invitations')
    .select('status, last_error, retries, next_attempt_at')
    .eq('email', email)
    .single();
  if (error) throw error;
  return data as { status: string; last_error: string | null; retries: number; next_attempt_at: string | null };
}

describe('the stand-in’s outage control', () => {
  it('makes the next N calls answer 503 before anything is checked or sent; the key is required', async () => {
    expect(await outage(2, null)).toMatchObject({ status: 401, body: { name: 'missing_api_key' } });
    expect(await outage(2, 're_wrong')).toMatchObject({ status: 403, body: { name: 'invalid_api_key' } });
    for (const bad of [-1, 1.5, '2', 1001])
      expect(await outage(bad)).toMatchObject({ status: 422, body: { name: 'validation_error' } });
    expect(await outage(2)).toEqual({ status: 200, body: { requests: 2 } });
    const to = uniqueEmail('outage-control');
    expect(await send(to)).toEqual({
      status: 503,
      body: {
        statusCode: 503,
        name: 'service_unavailable',
        message: 'The service is temporarily unavailable. Try again later.',
      },
    });
    expect((await send(to)).status).toBe(503);
    expect((await send(to)).status).toBe(200);
    expect(await readInbox(server.url, to)).toHaveLength(1);
    // Ended early.
    await outage(5);
    await outage(0);
    expect((await send(to)).status).toBe(200);
  });
});

describe('a mail outage heals itself', () => {
  it('503: pending, next attempt in a minute; due: 200, sent, exactly one mail', async () => {
    const buyer = uniqueEmail('outage-buyer');
    await outage(1);
    const before = Date.now();
    expect(await deliver(buyer, 9_200_001)).toMatchObject({ status: 200, body: { invitation: 'pending' } });
    const waiting = await invitation(buyer);
    expect(waiting).toMatchObject({
      status: 'pending',
      retries: 1,
      last_error: 'mail API 503 service_unavailable: The service is temporarily unavailable. Try again later.',
    });
    const next = Date.parse(waiting.next_attempt_at ?? '');
    expect(next - before).toBeGreaterThan(55_000);
    expect(next - Date.now()).toBeLessThanOrEqual(60_000);
    expect(await readInbox(server.url, buyer)).toEqual([]);

    // The provider is back, but the minute is not up: the schedule and another delivery leave it.
    expect((await runInvitationSchedule(server.url)).body).toMatchObject({ ok: true, due: 0 });
    expect(await deliver(buyer, 9_200_002)).toMatchObject({ status: 200, body: { invitation: 'already_handled' } });
    expect(await readInbox(server.url, buyer)).toEqual([]);

    // The minute passes (the database's clock, moved for the test): the schedule sends it.
    await server.db.query(
      `update public.buyer_invitations set next_attempt_at = now() - interval '1 second' where email = $1`,
      [buyer],
    );
    expect((await runInvitationSchedule(server.url)).body).toMatchObject({ ok: true, due: 1, sent: 1 });
    expect(await invitation(buyer)).toMatchObject({
      status: 'sent',
      retries: 0,
      next_attempt_at: null,
      last_error: null,
    });
    // Exactly one mail, whatever runs or arrives after.
    expect((await runInvitationSchedule(server.url)).body).toMatchObject({ due: 0 });
    expect(await deliver(buyer, 9_200_003)).toMatchObject({ body: { invitation: 'already_handled' } });
    const inbox = await readInbox(server.url, buyer);
    expect(inbox.map((m) => m.subject)).toEqual(['Your files are ready']);
  });

  it('staff read that invitations go through the mail API, not Auth', async () => {
    const staff = await signedIn(server.url, 'staff@example.com');
    const { data, error } = await staff.rpc('staff_mail_status');
    expect(error).toBeNull();
    expect(data).toMatchObject({ invites_via_auth: false, since: expect.any(String), last_seen: expect.any(String) });
  });
});
