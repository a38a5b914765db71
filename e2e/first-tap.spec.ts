import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { landing } from '../src/content/landing';
import { anonClient, expect as desktopExpect, holdTheApp, test, waitForHydration } from './fixtures';
import { readInbox } from './inbox';

// A visitor on a mid-range phone who acts as soon as the page shows: 4x CPU
// slowdown, 150 ms round trips, 1.6 Mbps down, 412 px wide. Each test acts right after the
// first contentful paint, while the app is still on its way, and checks that nothing it did
// was lost and that the right thing happened, whenever the app arrived. (How soon the page
// answered is measured by `npm run perf`, not here.) Like a person, a test acts on what is
// on screen at that moment (the visible field, whatever has focus), not on the element the
// app will show once it runs: Playwright would wait for that one, a person does not; a person
// does wait to see the answer to their tap (which the page gives by itself). Where the
// outcome hangs on whether the app came before or after an action, a test holds the app's
// chunk until the action is done, as a slower phone or network would.

test.describe.configure({ timeout: 60_000 });
// What waits for the app waits as long as a phone does: its chunks, parsed at a quarter of this
// machine's speed over a 1.6 Mbps link, can take longer on a busy runner than the desktop's
// step budget allows. What the page answers by itself is checked on screen, not timed (npm run
// perf measures that).
const expect = desktopExpect.configure({ timeout: 30_000 });
test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

async function asAPhone(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
}

/** Opens `path` and returns as soon as the page has painted its content, as a person acts. */
async function openAtFirstPaint(page: Page, path: string) {
  await asAPhone(page);
  await page.goto(path, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
}

test('tap Sign Up, type at once, Create Account: the account is made with what was typed', async ({ page }) => {
  const email = `e2e-phone-${randomUUID()}@example.com`;
  const password = `pw-${randomUUID()}`;
  const app = await holdTheApp(page);
  await openAtFirstPaint(page, '/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).tap();
  // A person taps the field they see once the tab has switched (within 200 ms: npm run perf),
  // which here comes without the app.
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('textbox', { name: 'Email' }).tap();
  await page.keyboard.type(email);
  await page.getByRole('tabpanel').getByLabel('Password', { exact: true }).tap();
  await page.keyboard.type(password);
  await app.release();
  await page.getByRole('button', { name: 'Create Account' }).tap();

  await expect(page.getByText('Account created!')).toBeVisible();
  // The account exists with that password: signed in, or waiting for the address to be confirmed.
  const { data, error } = await anonClient().auth.signInWithPassword({ email, password });
  expect(data.session !== null || error?.code === 'email_not_confirmed').toBe(true);
});

test('an arrow key on the tabs moves to the next tab at once, and the app keeps it', async ({ page }) => {
  await openAtFirstPaint(page, '/auth');
  const signIn = page.getByRole('tab', { name: 'Sign In' });
  const signUp = page.getByRole('tab', { name: 'Sign Up' });
  await signIn.focus();
  await page.keyboard.press('ArrowRight');
  await expect(signUp).toBeFocused();
  await expect(signUp).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();

  await waitForHydration(page, { act: false });
  await expect(signUp).toHaveAttribute('aria-selected', 'true');
  await expect(signUp).toBeFocused();
  // The app has it now: the arrow goes back.
  await page.keyboard.press('ArrowLeft');
  await expect(signIn).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('Forgot password?, type at once, Send: the reset e-mail arrives', async ({ page, makeUser }) => {
  const user = await makeUser();
  const app = await holdTheApp(page);
  await openAtFirstPaint(page, '/auth');
  await page.getByRole('button', { name: 'Forgot password?' }).tap();
  // Typed as soon as the form shows (without the app), into whatever has focus: the form's
  // field, which took it.
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.keyboard.type(user.email);
  await app.release();
  await page.getByRole('button', { name: 'Send reset link' }).tap();
  const email = page.getByRole('textbox', { name: 'Email' });

  await expect(page.getByText(`If an account exists for ${user.email}`)).toBeVisible();
  await expect(email).toHaveValue(user.email);
  await expect.poll(async () => (await readInbox(user.email)).length).toBe(1);
});

test('Play shows the player loading at once, and loads it once', async ({ page }) => {
  const embeds: string[] = [];
  await page.route(/youtube-nocookie\.com/, (route) => {
    embeds.push(route.request().url());
    return route.fulfill({ contentType: 'text/html', body: '<title>player</title>' });
  });
  await openAtFirstPaint(page, '/');
  await page.getByRole('button', { name: new RegExp(landing.hero.video.play) }).tap();
  await expect(page.getByText(landing.hero.video.loading)).toBeVisible();
  const player = page.getByTitle(landing.hero.video.iframeTitle);
  await expect(player).toBeVisible();
  // Focus is on the player: its frame is the page's active element. Whether the frame's own
  // document then holds the window's focus depends on when the player's page loads in it
  // (toBeFocused also asks that), so that is not asked.
  await expect.poll(() => player.evaluate((frame) => frame.ownerDocument.activeElement === frame)).toBe(true);
  await expect(page.locator('iframe[src]')).toHaveCount(1);
  await expect.poll(() => embeds.length).toBe(1);
});

test('typed into Sign In and Enter pressed at once: the member lands on their resources', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'ebook' });
  await openAtFirstPaint(page, '/auth');
  await page.getByRole('textbox', { name: 'Email' }).tap();
  await page.keyboard.type(user.email);
  await page.getByRole('tabpanel').getByLabel('Password', { exact: true }).tap();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();
});
