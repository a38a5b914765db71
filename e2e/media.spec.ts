import type { Browser, Page } from '@playwright/test';
import { findResourceCard } from '../src/content/resources';
import { admin, anonClient, expect, expectAccessible, signInAs, test, type TestUser } from './fixtures';

// A member on a phone: the audio and video of their cards play in the page, and carry on from
// where they stopped on another device, at the speed they chose. The media are the stand-in's
// seeded sample files: a real MP3 session of about 75 s and a real H.264/AAC MP4 with WebVTT
// captions (packages/supabase-stand-in/media/README.md says how each was made).
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
test.use(phone);

const audioCard = findResourceCard('scripture-audio')!;
const videoCard = findResourceCard('masterclass')!;
const SESSION = 'Session 1 called to write';

/** A phone of the member's: its own browser context, signed in, on /resources. */
async function openPhone(browser: Browser, baseURL: string, member: TestUser): Promise<Page> {
  const context = await browser.newContext({ ...phone, baseURL });
  const page = await context.newPage();
  await signInAs(page, member);
  await page.goto('/resources');
  return page;
}

/** The member's player's element, read in the page. */
function mediaState(page: Page, selector: 'audio' | 'video') {
  return page.locator(selector).evaluate((el: HTMLMediaElement) => ({
    time: el.currentTime,
    rate: el.playbackRate,
    paused: el.paused,
  }));
}

test('a session played on one phone resumes on another near where it stopped, at the same speed', async ({
  page,
  browser,
  makeUser,
  baseURL,
}) => {
  const member = await makeUser({ tier: 'foundation' });
  await signInAs(page, member);
  await page.goto('/resources');
  const card = page.getByRole('article', { name: audioCard.title });
  await expect(card.getByText('0 of 6 listened')).toBeVisible();
  await card.getByRole('button', { name: `Play ${SESSION}` }).click();

  const player = card.getByRole('region', { name: `Player: ${SESSION}` });
  await expect(player.getByRole('button', { name: `Pause ${SESSION}` })).toBeVisible();
  await player.getByLabel('Speed').selectOption('1.5');
  await expect.poll(async () => (await mediaState(page, 'audio')).rate).toBe(1.5);
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe(SESSION);

  // To 1:00, paused there: the pause saves the place.
  await player.getByRole('slider', { name: 'Position' }).fill('60');
  await expect.poll(async () => (await mediaState(page, 'audio')).time).toBeGreaterThanOrEqual(60);
  const saved = page.waitForResponse((r) => r.url().endsWith('/rpc/save_media_progress') && r.ok());
  await player.getByRole('button', { name: `Pause ${SESSION}` }).click();
  const place = (await (await saved).json()) as { position_seconds: number };
  expect(place.position_seconds).toBeGreaterThanOrEqual(59);
  expect(place.position_seconds).toBeLessThan(65);
  await expectAccessible(page);
  await page.goto('/');

  // Another phone: Continue opens the session at its place, at 1.5x.
  const other = await openPhone(browser, baseURL!, member);
  const otherCard = other.getByRole('article', { name: audioCard.title });
  await otherCard.getByRole('button', { name: `Continue: ${SESSION}` }).click();
  const otherPlayer = otherCard.getByRole('region', { name: `Player: ${SESSION}` });
  await expect(otherPlayer.getByRole('button', { name: `Pause ${SESSION}` })).toBeVisible();
  const resumed = await mediaState(other, 'audio');
  expect(Math.abs(resumed.time - 60)).toBeLessThan(5);
  expect(resumed.rate).toBe(1.5);
  await expect(otherPlayer.getByLabel('Speed')).toHaveValue('1.5');
  await other.context().close();

  // Plays are logged once a day per file, however many links the players asked for.
  const { data } = await admin.from('download_log').select('file_name').eq('user_id', member.id);
  expect(data).toEqual([{ file_name: `${audioCard.tier}/${audioCard.slug}/session-1-called-to-write.mp3` }]);
});

test('the masterclass plays with its captions, and the lock screen names it', async ({ page, makeUser }) => {
  const member = await makeUser({ tier: 'accelerated' });
  await signInAs(page, member);
  await page.goto('/resources');
  const card = page.getByRole('article', { name: videoCard.title });
  await expect(card.getByText('0 of 1 watched')).toBeVisible();
  // A video is not offered as a download, and its captions are not a file of their own.
  await expect(card.getByRole('link')).toHaveCount(0);
  await card.getByRole('button', { name: 'Start: Masterclass welcome' }).click();

  const player = card.getByRole('region', { name: 'Player: Masterclass welcome' });
  await expect(player.getByText('Welcome to the Yes, You Can! masterclass.')).toBeVisible();
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe('Masterclass welcome');
  await player.getByRole('button', { name: 'Captions' }).click();
  await expect(player.getByRole('button', { name: 'Captions' })).toHaveAttribute('aria-pressed', 'false');
  await expect(player.getByText('Welcome to the Yes, You Can! masterclass.')).toHaveCount(0);

  // Forward 15 s lands past the end of this short video: it ends, and counts as watched.
  await player.getByRole('button', { name: 'Forward 15 seconds' }).click();
  await expect(card.getByText('1 of 1 watched')).toBeVisible();
  await expectAccessible(page);
});

test('a link that ends mid-play is renewed, and play carries on from the same place', async ({ page, makeUser }) => {
  const member = await makeUser({ tier: 'foundation' });
  // The member stopped at 0:50 on another device.
  const client = anonClient();
  await client.auth.signInWithPassword({ email: member.email, password: member.password });
  const path = `${audioCard.tier}/${audioCard.slug}/session-1-called-to-write.mp3`;
  const { error } = await client.rpc('save_media_progress', { p_file_name: path, p_position: 50, p_duration: 75 });
  expect(error).toBeNull();
  await signInAs(page, member);

  // The player's first link serves the session's first 40 kB (its first 20 s), and then is past
  // its life: the next range is refused with 400, as Storage refuses a real ended link. (A link
  // signed again within the same second is the same URL, so the first refusal marks the end.)
  let served = 0;
  let refused = 0;
  await page.route('**/storage/v1/object/sign/**', async (route) => {
    const range = route.request().headers()['range'] ?? 'bytes=0-';
    if (served === 0) {
      served += 1;
      const response = await route.fetch({ headers: { ...route.request().headers(), range: 'bytes=0-39999' } });
      return route.fulfill({ response });
    }
    if (refused === 0 && !range.startsWith('bytes=0-')) {
      refused += 1;
      return route.fulfill({ status: 400, contentType: 'application/json', body: '{"message":"jwt expired"}' });
    }
    return route.continue();
  });
  const links: string[] = [];
  // Links asked for (GET), not the preflights the page asks ahead for each file (OPTIONS).
  page.on('response', (r) => {
    if (r.request().method() === 'GET' && r.url().includes('/functions/v1/download?play=1') && r.ok()) {
      links.push(r.url());
    }
  });

  await page.goto('/resources');
  const card = page.getByRole('article', { name: audioCard.title });
  await card.getByRole('button', { name: `Continue: ${SESSION}` }).click();
  const player = card.getByRole('region', { name: `Player: ${SESSION}` });
  // 0:50 is past the first link's bytes: its range is refused, a second link is asked for.
  await expect.poll(() => links.length).toBe(2);
  expect(refused).toBe(1);
  await expect(player.getByRole('button', { name: `Pause ${SESSION}` })).toBeVisible();
  await expect.poll(async () => (await mediaState(page, 'audio')).time).toBeGreaterThan(50.5);
  expect((await mediaState(page, 'audio')).time).toBeLessThan(60);
  await expect(player.getByRole('alert')).toHaveCount(0);
});
