// The booking webhook end to end: a delivery signed as Cal.com or Calendly signs it, built from
// the provider's documented example, sent to the stand-in; the function in real Deno;
// public.record_booking in Postgres; and the row public.coaching_bookings keeps.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_FUNCTION_SECRETS, readFunctionsConfig } from '../functions/service.mjs';
import { SERVICE_ROLE_KEY } from '../keys.mjs';
import {
  calcomRequest,
  calendlyReschedule,
  calendlyRequest,
  fixture,
} from '../../../supabase/functions/booking-webhook/test-support.ts';
import { serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

const CALCOM = LOCAL_FUNCTION_SECRETS.CALCOM_WEBHOOK_SECRET;
const CALENDLY = LOCAL_FUNCTION_SECRETS.CALENDLY_WEBHOOK_SIGNING_KEY;

let server: StandIn;
let url: string;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  url = `${server.url}/functions/v1/booking-webhook`;
});
afterAll(async () => {
  await server?.close();
});

/** Sends a delivery made for the function to the stand-in. */
async function deliver(made: Promise<Request>): Promise<{ status: number; body: Record<string, unknown> }> {
  const req = await made;
  const res = await fetch(url, { method: 'POST', headers: req.headers, body: await req.arrayBuffer() });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function confirmedUser(): Promise<{ id: string; email: string }> {
  const email = uniqueEmail('coached');
  const { data, error } = await serviceClient(server.url).auth.admin.createUser({
    email,
    password: 'password123',
    email_confirm: true,
  });
  if (error || !data.user) throw error ?? new Error('no user');
  return { id: data.user.id, email };
}

async function bookings(provider: string, ...ids: string[]) {
  const { data, error } = await serviceClient(server.url)
    .from('coaching_bookings')
    .select('provider_booking_id, user_id, email, status, starts_at, meeting_url, updated_at')
    .eq('provider', provider)
    .in('provider_booking_id', ids)
    .order('provider_booking_id');
  if (error) throw error;
  return data as { provider_booking_id: string; user_id: string | null; status: string; updated_at: string }[];
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

/** Cal.com's documented example for `event`, as booked through the site's link by `memberId`. */
function calcomBooking(event: 'created' | 'cancelled', uid: string, memberId: string) {
  const body = fixture(`calcom-booking-${event}`);
  body.payload.uid = uid;
  body.payload.metadata = { ...(body.payload.metadata as object), memberId };
  return calcomRequest(body, { secret: CALCOM });
}

it('config.toml lets the providers call the function without a Supabase JWT', () => {
  const toml = readFileSync(new URL('../../../supabase/config.toml', import.meta.url), 'utf8');
  expect(readFunctionsConfig(toml).get('booking-webhook')).toEqual({ verifyJwt: false });
});

describe('Cal.com → record_booking → coaching_bookings', () => {
  it('a signed BOOKING_CREATED is the member’s booking (by the id the link carried); a cancel cancels it', async () => {
    const member = await confirmedUser();
    const uid = unique('cal');
    // The documented example's attendee (guest@example.com) is not the member: the id matches.
    const created = await deliver(calcomBooking('created', uid, member.id));
    expect(created).toMatchObject({ status: 200, body: { outcome: 'recorded', status: 'booked', matched: true } });
    expect(await bookings('calcom', uid)).toEqual([
      expect.objectContaining({
        user_id: member.id,
        email: 'guest@example.com',
        status: 'booked',
        starts_at: expect.stringMatching(/^2024-01-01T10:00:00/),
        meeting_url: 'https://app.example.com/video/unique-booking-id',
      }),
    ]);
    expect((await deliver(calcomBooking('cancelled', uid, member.id))).status).toBe(200);
    expect(await bookings('calcom', uid)).toMatchObject([{ user_id: member.id, status: 'cancelled' }]);
  });

  it('a repeated delivery changes nothing', async () => {
    const member = await confirmedUser();
    const uid = unique('cal');
    await deliver(calcomBooking('created', uid, member.id));
    const first = await bookings('calcom', uid);
    expect((await deliver(calcomBooking('created', uid, member.id))).status).toBe(200);
    expect(await bookings('calcom', uid)).toEqual(first);
    await deliver(calcomBooking('cancelled', uid, member.id));
    const cancelled = await bookings('calcom', uid);
    expect((await deliver(calcomBooking('cancelled', uid, member.id))).status).toBe(200);
    expect(await bookings('calcom', uid)).toEqual(cancelled);
  });

  it('a forged signature is refused with 401, and nothing is recorded', async () => {
    const member = await confirmedUser();
    const uid = unique('forged');
    const body = fixture('calcom-booking-created');
    Object.assign(body.payload, { uid, metadata: { memberId: member.id } });
    const res = await deliver(calcomRequest(body, { secret: 'not-the-secret' }));
    expect(res).toEqual({ status: 401, body: { ok: false, error: 'signature does not match' } });
    const noSecret = await deliver(calcomRequest(body, { secret: CALCOM, signature: 'no-secret-provided' }));
    expect(noSecret.status).toBe(401);
    expect(await bookings('calcom', uid)).toEqual([]);
  });
});

describe('Calendly → record_booking → coaching_bookings', () => {
  it('a reschedule: the old invitee becomes rescheduled, the new one booked, both the member’s', async () => {
    const member = await confirmedUser();
    const base = `https://api.calendly.com/scheduled_events/${unique('EV')}/invitees`;
    const [oldUri, newUri] = [`${base}/OLD`, `${base}/NEW`];
    const booked = fixture('calendly-invitee-created');
    Object.assign(booked.payload, { uri: oldUri, tracking: { utm_content: member.id } });
    expect((await deliver(calendlyRequest(booked, { key: CALENDLY }))).status).toBe(200);
    const { canceled, created } = calendlyReschedule(oldUri, newUri, { memberId: member.id });
    expect((await deliver(calendlyRequest(canceled, { key: CALENDLY }))).body).toMatchObject({
      event: 'rescheduled',
      status: 'rescheduled',
    });
    expect((await deliver(calendlyRequest(created, { key: CALENDLY }))).body).toMatchObject({ status: 'booked' });
    expect(await bookings('calendly', oldUri, newUri)).toMatchObject([
      { provider_booking_id: newUri, user_id: member.id, status: 'booked' },
      { provider_booking_id: oldUri, user_id: member.id, status: 'rescheduled' },
    ]);
  });

  it('a signature more than 3 minutes old is refused with 401, and nothing is recorded', async () => {
    const uri = `https://api.calendly.com/scheduled_events/${unique('EV')}/invitees/STALE`;
    const body = fixture('calendly-invitee-created');
    body.payload.uri = uri;
    const stale = Math.floor(Date.now() / 1000) - 240;
    expect((await deliver(calendlyRequest(body, { key: CALENDLY, timestamp: stale }))).status).toBe(401);
    expect(await bookings('calendly', uri)).toEqual([]);
  });
});

describe('what staff and the smoke check read', () => {
  it('GET with a staff member’s token says which providers are on; a member is refused', async () => {
    const ask = async (email: string) => {
      const client = await signedIn(server.url, email);
      const token = (await client.auth.getSession()).data.session?.access_token ?? '';
      const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect(await ask('staff@example.com')).toEqual({ status: 200, body: { calcom: true, calendly: true } });
    expect((await ask('accelerated@example.com')).status).toBe(403);
    expect((await fetch(url)).status).toBe(401);
  });

  it('…/booking-webhook/secrets tells the service-role key that nothing is missing', async () => {
    const res = await fetch(`${url}/secrets`, { headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}` } });
    expect(await res.json()).toMatchObject({ function: 'booking-webhook', missing: [] });
  });
});
