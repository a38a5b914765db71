import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { runMemberMailSchedule } from '../packages/supabase-stand-in/cron.mjs';
import { e2eEnv } from './env';
import { admin, anonClient, expect, expectAccessible, signInAs, test, type TestUser } from './fixtures';
import { readInbox } from './inbox';

// Live circles, Q&A calls and community access with an end date (migration 20261208010000).
// Sessions are made by a staff member through the staff functions the sessions page calls;
// they are the whole site's, so each test names its own.
const timeZone = 'America/Los_Angeles';
test.use({ locale: 'en-US', timezoneId: timeZone });

async function clientOf(user: TestUser) {
  const client = anonClient();
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  expect(error).toBeNull();
  return client;
}

type Client = Awaited<ReturnType<typeof clientOf>>;

async function schedule(staff: Client, title: string, inMinutes: number, joinUrl: string) {
  const startsAt = new Date(Date.now() + inMinutes * 60_000);
  startsAt.setUTCSeconds(0, 0);
  const { data, error } = await staff.rpc('staff_save_live_session', {
    p_id: null,
    p_benefit: 'circle',
    p_title: title,
    p_starts_at: startsAt.toISOString(),
    p_minutes: 120,
    p_join_url: joinUrl,
    p_description: 'Bring the page you are stuck on.',
    p_recording_path: null,
  });
  expect(error).toBeNull();
  return { id: data as string, startsAt };
}

/** "10:00 am", as the member's clock shows it. */
const clock = (at: Date) =>
  new Intl.DateTimeFormat('en-GB', { hour: 'numeric', minute: '2-digit', hourCycle: 'h12', timeZone }).format(at);

test('the circle shows in the member’s zone, goes into a calendar, and opens only in its window', async ({
  page,
  makeUser,
}) => {
  const [member, foundation, ended, staffUser] = await Promise.all([
    makeUser({ tier: 'accelerated' }),
    makeUser({ tier: 'foundation' }),
    makeUser({ tier: 'accelerated' }),
    makeUser({ staff: true }),
  ]);
  const staff = await clientOf(staffUser);
  const tag = randomUUID().slice(0, 8);
  const later = await schedule(staff, `Circle later ${tag}`, 60, `https://meet.example.com/later-${tag}`);
  const soon = await schedule(staff, `Circle soon ${tag}`, 10, `https://meet.example.com/soon-${tag}`);

  await signInAs(page, member);
  await page.goto('/resources');
  const live = page.getByRole('region', { name: 'Live sessions and community' });
  const { data: ends } = await admin
    .from('member_benefits')
    .select('ends_at')
    .eq('user_id', member.id)
    .eq('benefit', 'community')
    .single();
  const endDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(
    new Date(ends!.ends_at as string),
  );
  await expect(live).toContainText(`Community access until ${endDay}`);

  const laterItem = live.getByRole('listitem').filter({ hasText: `Circle later ${tag}` });
  const soonItem = live.getByRole('listitem').filter({ hasText: `Circle soon ${tag}` });
  await expect(laterItem).toContainText(clock(later.startsAt));
  await expect(soonItem.getByRole('link', { name: /^Join now/ })).toHaveAttribute(
    'href',
    `https://meet.example.com/soon-${tag}`,
  );
  await expect(laterItem.getByRole('link', { name: /^Join now/ })).toHaveCount(0);
  await expect(page.locator(`a[href*="later-${tag}"]`)).toHaveCount(0);
  await expectAccessible(page);

  // The .ics reads back, through an independent parser, to the same instant.
  const download = page.waitForEvent('download');
  await laterItem.getByRole('button', { name: 'Add to calendar (.ics)' }).click();
  const file = await (await download).path();
  const event = new ICAL.Event(
    new ICAL.Component(ICAL.parse(await readFile(file, 'utf8'))).getFirstSubcomponent('vevent')!,
  );
  expect(event.startDate.toJSDate().getTime()).toBe(later.startsAt.getTime());
  expect(event.summary).toBe(`Circle later ${tag}`);

  // A lower tier gets no join link, even asking the database directly.
  const lower = await (await clientOf(foundation)).rpc('session_join_link', { p_session: soon.id });
  expect(lower.error?.code).toBe('42501');
  expect(lower.data).toBeNull();

  // A member whose access staff ended sees so, and is refused the link.
  const { error: endError } = await staff.rpc('staff_change_benefit', {
    p_user: ended.id,
    p_benefit: 'circle',
    p_action: 'end',
    p_days: null,
    p_reason: 'e2e: the circle ended early',
  });
  expect(endError).toBeNull();
  const refused = await (await clientOf(ended)).rpc('session_join_link', { p_session: soon.id });
  expect(refused.error?.code).toBe('42501');
});

test('reminders arrive once each across two scheduled runs, and a refund ends access at once', async ({
  page,
  makeUser,
}) => {
  const [member, staffUser] = await Promise.all([makeUser(), makeUser({ staff: true })]);
  const staff = await clientOf(staffUser);
  // A purchase (so that it can be refunded) of the Accelerated bundle by the member's address.
  const orderId = `e2e-live-${randomUUID()}`;
  const sale = await admin.rpc('record_purchase', {
    p_provider: 'stripe',
    p_event_id: `evt_${randomUUID()}`,
    p_order_id: orderId,
    p_email: member.email,
    p_product: 'Accelerated',
    p_tier: 'accelerated',
    p_amount_cents: 49900,
    p_currency: 'USD',
    p_occurred_at: new Date().toISOString(),
  });
  expect(sale.error).toBeNull();
  // Staff bring the community's end to 6 days from now: end it, then extend it by 6 days.
  for (const change of [
    { p_action: 'end', p_days: null },
    { p_action: 'extend', p_days: 6 },
  ]) {
    const { error } = await staff.rpc('staff_change_benefit', {
      p_user: member.id,
      p_benefit: 'community',
      ...change,
      p_reason: 'e2e: an access ending soon',
    });
    expect(error).toBeNull();
  }
  const tag = randomUUID().slice(0, 8);
  await schedule(staff, `Circle reminder ${tag}`, 30, `https://meet.example.com/r-${tag}`);

  for (let run = 0; run < 2; run += 1) {
    const { status, body } = await runMemberMailSchedule(e2eEnv.supabaseUrl);
    expect(status, JSON.stringify(body)).toBe(200);
  }
  // Other tests' sessions remind this member too: only this test's own are counted.
  const subjects = (await readInbox(member.email, { reminders: true }))
    .map((mail) => mail.subject)
    .filter((subject) => subject.includes(tag) || subject.includes('community access'))
    .sort();
  expect(subjects).toEqual([`Circle reminder ${tag} starts in 1 hour`, 'Your community access ends in 7 days']);

  // The refund ends the community and the circle at once.
  const refund = await admin.rpc('record_refund', {
    p_provider: 'stripe',
    p_event_id: `evt_${randomUUID()}`,
    p_order_id: orderId,
    p_occurred_at: new Date().toISOString(),
  });
  expect(refund.error).toBeNull();
  await signInAs(page, member);
  await page.goto('/resources');
  const live = page.getByRole('region', { name: 'Live sessions and community' });
  await expect(live).toContainText('Your community access ended on');
  await expect(live.getByRole('link', { name: 'the bundles' })).toHaveAttribute('href', '/bundles');
  const { data: benefits } = await (await clientOf(member)).rpc('member_benefits');
  expect((benefits as Array<{ active: boolean; link: string | null }>).every((b) => !b.active && b.link === null)).toBe(
    true,
  );
});

test('staff schedule a circle on the sessions page, see who holds it, and extend a member’s access', async ({
  page,
  makeUser,
}) => {
  const [member, staffUser] = await Promise.all([makeUser({ tier: 'accelerated' }), makeUser({ staff: true })]);
  await signInAs(page, staffUser);
  await page.goto('/staff/sessions');
  const live = page.getByRole('region', { name: 'Live sessions' });
  const form = live.getByRole('form', { name: 'Schedule a session' });
  const title = `Staff circle ${randomUUID().slice(0, 8)}`;
  const start = new Date(Date.now() + 3 * 86_400_000);
  // datetime-local takes the wall-clock time in the browser's zone.
  const local = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' })
    .format(start)
    .replace(' ', 'T');
  await form.getByLabel('Kind of session').selectOption('circle');
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Starts').fill(local);
  await form.getByLabel('Join link').fill('https://meet.example.com/staff-circle');
  await form.getByRole('button', { name: 'Schedule session' }).click();
  await expect(page.getByText('Session scheduled')).toBeVisible();
  const item = live.getByRole('listitem').filter({ hasText: title });
  await expect(item).toContainText(/\d+ members? holds? this/);
  await item.getByText(/members? holds? this/).click();
  await expect(item.getByRole('list', { name: 'Members who hold it' })).toContainText(member.email);
  // Checked once the toast has gone: sonner's fade-in is a contrast that never stays.
  await expect(page.getByText('Session scheduled')).toBeHidden();
  await expectAccessible(page);

  // The member's panel: extend the community by 30 days with a reason, audited.
  await page.goto(`/staff/members?search=${encodeURIComponent(member.email)}&member=${member.id}`);
  const access = page.getByRole('region', { name: 'Access with an end date' });
  const change = access.getByRole('form', { name: 'Extend or end their access' });
  await change.getByLabel('Access').selectOption('community');
  await change.getByLabel('Days to extend by').fill('30');
  await change.getByLabel('Reason').fill('e2e: a month more for the launch');
  await change.getByRole('button', { name: 'Extend access' }).click();
  await expect(access.getByRole('list', { name: 'Changes to their access' })).toContainText(
    'a month more for the launch',
  );
  const { data } = await admin
    .from('benefit_audit')
    .select('action, reason, old_ends_at, new_ends_at')
    .eq('user_id', member.id)
    .eq('action', 'extended')
    .single();
  expect(new Date(data!.new_ends_at as string).getTime() - new Date(data!.old_ends_at as string).getTime()).toBe(
    30 * 86_400_000,
  );
});
