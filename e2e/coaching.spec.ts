import { randomUUID } from 'node:crypto';
import { LOCAL_FUNCTION_SECRETS } from '../packages/supabase-stand-in/functions/secrets.mjs';
import {
  calcomRequest,
  calendlyRequest,
  calendlyReschedule,
  fixture,
} from '../supabase/functions/booking-webhook/test-support.ts';
import { e2eEnv } from './env';
import { admin, expect, expectAccessible, signInAs, test } from './fixtures';

// A member of a bundle with coaching books on the owner's page; the providers' signed webhooks
// (their documented example payloads, supabase/functions/booking-webhook/fixtures/README.md)
// keep the count. The development secrets are the stand-in's; a stack with its own: set them.
const calcomSecret = process.env.CALCOM_WEBHOOK_SECRET ?? LOCAL_FUNCTION_SECRETS.CALCOM_WEBHOOK_SECRET;
const calendlyKey = process.env.CALENDLY_WEBHOOK_SIGNING_KEY ?? LOCAL_FUNCTION_SECRETS.CALENDLY_WEBHOOK_SIGNING_KEY;
const timeZone = 'America/Los_Angeles';
test.use({ locale: 'en-US', timezoneId: timeZone });

async function deliver(made: Request): Promise<number> {
  const res = await fetch(`${e2eEnv.supabaseUrl}/functions/v1/booking-webhook`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
  await res.body?.cancel();
  return res.status;
}

/** Cal.com's documented BOOKING_* example, made this member's booking `uid` at `start`. */
function calcomBooking(
  trigger: 'BOOKING_CREATED' | 'BOOKING_CANCELLED',
  uid: string,
  member: { id: string; email: string },
  start: Date,
) {
  const body = fixture(trigger === 'BOOKING_CREATED' ? 'calcom-booking-created' : 'calcom-booking-cancelled');
  Object.assign(body.payload, {
    uid,
    startTime: start.toISOString(),
    endTime: new Date(start.getTime() + 90 * 60_000).toISOString(),
    attendees: [{ email: member.email, name: 'E2E Member', timeZone }],
    metadata: { ...(body.payload.metadata as object), memberId: member.id },
  });
  return body;
}

/** Calendly's documented invitee example, at `start`. */
function calendlyAt<T extends { payload: Record<string, unknown> }>(body: T, start: Date): T {
  const event = body.payload.scheduled_event as Record<string, unknown>;
  event.start_time = start.toISOString();
  event.end_time = new Date(start.getTime() + 90 * 60_000).toISOString();
  return body;
}

async function bookingRows(userId: string) {
  const { data, error } = await admin.from('coaching_bookings').select('status').eq('user_id', userId);
  expect(error).toBeNull();
  return (data ?? []).map((row) => row.status as string).sort();
}

test('the count keeps itself from Cal.com and Calendly deliveries', async ({ page, makeUser }) => {
  const member = await makeUser({ tier: 'accelerated' });
  await signInAs(page, member);
  await page.goto('/resources');
  const coaching = page.getByRole('region', { name: 'Your coaching' });
  await expect(coaching).toContainText('2 of 2 sessions left');
  const book = coaching.getByRole('link', { name: /^Book a session/ });
  expect(new URL((await book.getAttribute('href'))!).searchParams.get('metadata[memberId]')).toBe(member.id);

  // Cal.com: created, then the same delivery again, shows one session in the member's zone.
  const start = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 15, 17, 0));
  const uid = `e2e-${randomUUID()}`;
  const created = calcomBooking('BOOKING_CREATED', uid, member, start);
  expect(await deliver(await calcomRequest(created, { secret: calcomSecret }))).toBe(200);
  expect(await deliver(await calcomRequest(created, { secret: calcomSecret }))).toBe(200);
  await page.reload();
  await expect(coaching).toContainText('1 of 2 sessions left');
  const local = new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone }).format(start);
  await expect(coaching.getByRole('listitem').filter({ hasText: local })).toContainText('9:00 AM');
  await expect(coaching.getByRole('link', { name: 'Join the session' })).toBeVisible();
  await expectAccessible(page);

  // A cancellation gives it back.
  const cancelled = calcomBooking('BOOKING_CANCELLED', uid, member, start);
  expect(await deliver(await calcomRequest(cancelled, { secret: calcomSecret }))).toBe(200);
  await page.reload();
  await expect(coaching).toContainText('2 of 2 sessions left');

  // Calendly: booked, then rescheduled (canceled with rescheduled: true, then created): one used.
  const oldUri = `https://api.calendly.com/scheduled_events/e2e/invitees/${randomUUID()}`;
  const newUri = `https://api.calendly.com/scheduled_events/e2e/invitees/${randomUUID()}`;
  const pair = calendlyReschedule(oldUri, newUri, { memberId: member.id, email: member.email });
  const first = calendlyAt(fixture('calendly-invitee-created'), start);
  Object.assign(first.payload, { uri: oldUri, email: member.email, tracking: pair.created.payload.tracking });
  expect(await deliver(await calendlyRequest(first, { key: calendlyKey }))).toBe(200);
  expect(await deliver(await calendlyRequest(pair.canceled, { key: calendlyKey }))).toBe(200);
  expect(await deliver(await calendlyRequest(calendlyAt(pair.created, start), { key: calendlyKey }))).toBe(200);
  await page.reload();
  await expect(coaching).toContainText('1 of 2 sessions left');
  expect(await bookingRows(member.id)).toEqual(['booked', 'cancelled', 'rescheduled']);

  // A forged signature is refused and records nothing.
  const forged = calcomBooking('BOOKING_CREATED', `e2e-${randomUUID()}`, member, start);
  expect(await deliver(await calcomRequest(forged, { secret: 'not-the-secret' }))).toBe(401);
  expect(await bookingRows(member.id)).toEqual(['booked', 'cancelled', 'rescheduled']);
});

test('a booking under an unknown e-mail waits for staff, who assign it to the member', async ({
  page,
  browser,
  makeUser,
  baseURL,
}) => {
  const member = await makeUser({ tier: 'accelerated' });
  const staff = await makeUser({ staff: true });
  // Booked with another address and without the member's link: nothing ties it to them.
  const who = `Booked Elsewhere ${randomUUID().slice(0, 8)}`;
  const stranger = { id: 'not-a-member', email: `e2e-${randomUUID()}@elsewhere.example` };
  const body = calcomBooking('BOOKING_CREATED', `e2e-${randomUUID()}`, stranger, new Date(Date.now() + 86_400_000));
  (body.payload.attendees as { name: string }[])[0]!.name = who;
  expect(await deliver(await calcomRequest(body, { secret: calcomSecret }))).toBe(200);

  await signInAs(page, staff);
  await page.goto('/staff/sessions');
  const unmatched = page.getByRole('region', { name: 'Unmatched bookings' });
  const form = unmatched.getByRole('form', { name: `Assign the booking of ${who}` });
  await expect(form).toBeVisible();
  await expectAccessible(page);
  await form.getByLabel('Member’s e-mail').fill(member.email);
  await form.getByRole('button', { name: 'Assign to a member' }).click();
  await expect(page.getByText(`Booking assigned to ${member.email}`)).toBeVisible();
  await expect(unmatched.getByRole('form', { name: `Assign the booking of ${who}` })).toHaveCount(0);

  const memberContext = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: timeZone });
  const memberPage = await memberContext.newPage();
  await signInAs(memberPage, member);
  await memberPage.goto('/resources');
  await expect(memberPage.getByRole('region', { name: 'Your coaching' })).toContainText('1 of 2 sessions left');
  await memberContext.close();
});
