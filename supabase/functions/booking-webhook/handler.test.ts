// The webhook's answers, status by status, with a store and a staff check that only record what
// they are asked: nothing is recorded unless the signature is good, every verified delivery is a
// 200, and only the database's failure is a 500.
import { describe, expect, it } from 'vitest';
import { calcomProvider } from './calcom.ts';
import { calendlyProvider } from './calendly.ts';
import { createBookingHandler, type LogEntry } from './handler.ts';
import { recordBookingArgs } from './store.ts';
import { BASE, calcomRequest, calendlyRequest, fixture } from './test-support.ts';
import type { BookingEvent, BookingStore } from './types.ts';

const CALCOM = 'calcom-test-secret';
const CALENDLY = 'calendly-test-key';

function setup(options: { calcom?: string | null; calendly?: string | null; failing?: boolean } = {}) {
  const recorded: BookingEvent[] = [];
  const logs: LogEntry[] = [];
  const store: BookingStore = {
    async recordBooking(event) {
      if (options.failing) throw new Error('database unreachable');
      recorded.push(event);
      return { bookingId: 'b-1', userId: event.memberId, status: 'booked', overAllowance: false };
    },
  };
  const handle = createBookingHandler({
    providers: [
      calcomProvider(options.calcom === undefined ? CALCOM : options.calcom),
      calendlyProvider(options.calendly === undefined ? CALENDLY : options.calendly),
    ],
    store,
    isStaff: async (token) => token === 'staff-token',
    log: (entry) => logs.push(entry),
  });
  const send = async (req: Request) => {
    const res = await handle(req);
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as Record<string, unknown>) };
  };
  return { send, recorded, logs };
}

describe('a delivery is recorded only when its signature is good', () => {
  it('Cal.com, signed: 200, one record_booking with the booking’s fields', async () => {
    const { send, recorded } = setup();
    const body = fixture('calcom-booking-created');
    body.payload.metadata = { memberId: 'member-1' };
    expect(await send(await calcomRequest(body, { secret: CALCOM }))).toEqual({
      status: 200,
      body: { ok: true, outcome: 'recorded', event: 'created', status: 'booked', matched: true, overAllowance: false },
    });
    expect(recorded.map(recordBookingArgs)).toEqual([
      {
        p_provider: 'calcom',
        p_event: 'created',
        p_booking_id: 'unique-booking-id',
        p_previous_booking_id: null,
        p_member_id: 'member-1',
        p_email: 'guest@example.com',
        p_name: 'Guest User',
        p_starts_at: '2024-01-01T10:00:00.000Z',
        p_ends_at: '2024-01-01T10:15:00.000Z',
        p_meeting_url: 'https://video.example.com/meeting-room-id',
        p_occurred_at: '2024-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('Calendly, signed now: 200; the same body signed 4 minutes ago: 401', async () => {
    const { send, recorded } = setup();
    const body = fixture('calendly-invitee-canceled');
    expect((await send(await calendlyRequest(body, { key: CALENDLY }))).status).toBe(200);
    const stale = Math.floor(Date.now() / 1000) - 240;
    expect((await send(await calendlyRequest(body, { key: CALENDLY, timestamp: stale }))).status).toBe(401);
    expect(recorded.map((e) => e.event)).toEqual(['cancelled']);
  });

  it('401 and nothing recorded: unsigned, forged, no-secret-provided, tampered, signed for both', async () => {
    const { send, recorded, logs } = setup();
    const body = fixture('calcom-booking-created');
    const unsigned = new Request(BASE, { method: 'POST', body: JSON.stringify(body) });
    const forged = await calcomRequest(body, { secret: 'guessed' });
    const noSecret = await calcomRequest(body, { secret: CALCOM, signature: 'no-secret-provided' });
    const signed = await calcomRequest(body, { secret: CALCOM });
    const tampered = new Request(BASE, {
      method: 'POST',
      headers: signed.headers,
      body: JSON.stringify({ ...body, triggerEvent: 'BOOKING_CANCELLED' }),
    });
    const both = await calcomRequest(body, { secret: CALCOM });
    both.headers.set('Calendly-Webhook-Signature', 't=1,v1=00');
    for (const req of [unsigned, forged, noSecret, tampered, both]) expect((await send(req)).status).toBe(401);
    expect(recorded).toEqual([]);
    expect(logs.filter((l) => l.message === 'request refused')).toHaveLength(5);
  });

  it('401 for a provider whose secret is unset or that BOOKING_PROVIDER switched off', async () => {
    const { send, recorded } = setup({ calendly: null });
    const res = await send(await calendlyRequest(fixture('calendly-invitee-created'), { key: CALENDLY }));
    expect(res).toEqual({
      status: 401,
      body: { ok: false, error: 'Calendly is not enabled: CALENDLY_WEBHOOK_SIGNING_KEY is not set' },
    });
    expect(recorded).toEqual([]);
  });
});

describe('the other answers', () => {
  it('200 ignored for a verified trigger that changes no booking (Cal.com’s PING)', async () => {
    const { send, recorded } = setup();
    const ping = { triggerEvent: 'PING', createdAt: '2024-01-01T00:00:00Z', payload: {} };
    expect(await send(await calcomRequest(ping, { secret: CALCOM }))).toEqual({
      status: 200,
      body: { ok: true, ignored: true, reason: 'trigger PING is not a booking change' },
    });
    expect(recorded).toEqual([]);
  });

  it('200 ignored, logged as an error, for a verified booking change it cannot read', async () => {
    const { send, logs } = setup();
    const body = fixture('calendly-invitee-created');
    delete body.payload.uri;
    expect((await send(await calendlyRequest(body, { key: CALENDLY }))).body).toMatchObject({ ignored: true });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', reason: 'payload.uri is missing' }));
  });

  it('500 when the database cannot record it, so the provider retries', async () => {
    const { send, logs } = setup({ failing: true });
    const res = await send(await calcomRequest(fixture('calcom-booking-created'), { secret: CALCOM }));
    expect(res).toEqual({ status: 500, body: { ok: false, error: 'internal error; the provider will retry' } });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', error: 'database unreachable' }));
  });

  it('413 for a body over 1 MiB, before the signature is even computed; 405 for PUT', async () => {
    const { send } = setup();
    const big = await calcomRequest('x'.repeat(1024 * 1024 + 1), { secret: CALCOM, signature: 'ab' });
    expect((await send(big)).status).toBe(413);
    expect((await send(new Request(BASE, { method: 'PUT', body: '{}' }))).status).toBe(405);
  });
});

describe('GET: which providers are on, for staff only', () => {
  const get = (token?: string) => new Request(BASE, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

  it('says which providers take deliveries, by name only', async () => {
    expect(await setup().send(get('staff-token'))).toEqual({ status: 200, body: { calcom: true, calendly: true } });
    expect((await setup({ calcom: null }).send(get('staff-token'))).body).toEqual({ calcom: false, calendly: true });
  });

  it('401 without a token, 403 for a member; a browser preflight is 204', async () => {
    const { send } = setup();
    expect((await send(get())).status).toBe(401);
    expect((await send(get('member-token'))).status).toBe(403);
    expect((await send(new Request(BASE, { method: 'OPTIONS' }))).status).toBe(204);
  });
});
