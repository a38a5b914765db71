// `npm run booking:simulate` against a stand-in: the script's own command line (read from
// package.json, with the pinned Deno binary), real signed deliveries, and the bookings they leave.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient, startStandIn, uniqueEmail, type StandIn } from '../../packages/supabase-stand-in/tests/helpers';
import { runDenoScript } from './run-deno-script';

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

function simulate(...args: string[]): Promise<{ code: number; output: string }> {
  return runDenoScript(
    'booking:simulate',
    args,
    { BOOKING_WEBHOOK_URL: `${server.url}/functions/v1/booking-webhook` },
    ['CALCOM_WEBHOOK_SECRET', 'CALENDLY_WEBHOOK_SIGNING_KEY'],
  );
}

async function bookingsOf(email: string) {
  const { data, error } = await serviceClient(server.url)
    .from('coaching_bookings')
    .select('provider, provider_booking_id, user_id, status')
    .eq('email', email)
    .order('provider_booking_id');
  if (error) throw error;
  return data;
}

describe('npm run booking:simulate', () => {
  it(
    'books, reschedules and cancels for either provider, matched by e-mail or by --member',
    { timeout: 120_000 },
    async () => {
      const email = uniqueEmail('booker');
      const { data, error } = await serviceClient(server.url).auth.admin.createUser({
        email,
        password: 'password123',
        email_confirm: true,
      });
      if (error || !data.user) throw error ?? new Error('no user');
      const id = data.user.id;

      const booked = await simulate('--provider', 'calcom', '--event', 'created', '--email', email, '--member', id);
      expect(booked.output).toContain('200 {"ok":true,"outcome":"recorded","event":"created","status":"booked"');
      expect(booked.code).toBe(0);
      const cancelled = await simulate('--provider', 'calcom', '--event', 'cancelled', '--email', email);
      expect(cancelled.output).toContain('"status":"cancelled"');

      await simulate('--provider', 'calendly', '--event', 'created', '--email', email);
      const moved = await simulate('--provider', 'calendly', '--event', 'rescheduled', '--email', email);
      expect(moved.code).toBe(0);
      expect((await bookingsOf(email)).map(({ provider, user_id, status }) => [provider, user_id, status])).toEqual([
        ['calendly', id, 'rescheduled'],
        ['calendly', id, 'booked'],
        ['calcom', id, 'cancelled'],
      ]);
    },
  );

  it('refuses an event it does not know, without sending anything', async () => {
    const result = await simulate('--provider', 'calcom', '--event', 'noshow', '--email', 'a@b.c');
    expect(result.code).toBe(2);
    expect(result.output).toContain('--event must be created, cancelled or rescheduled');
  });
});
