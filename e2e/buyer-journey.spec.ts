import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { unlockOffer } from '../src/content/bundles';
import { resourceCards } from '../src/content/resources';
import { formatPrice } from '../src/content/site';
import { tierRank, type Tier } from '../src/content/tiers';
import { downloadLinkName } from './files';
import { admin, expect, expectAccessible, signInAs, test } from './fixtures';

const unlockLinks = (page: Page) => page.getByRole('link', { name: /^Unlock with / });

function lockedCount(tier: Tier | null) {
  return tier === null
    ? resourceCards.length
    : resourceCards.filter((card) => tierRank(card.tier) > tierRank(tier)).length;
}

/**
 * Resolves once the page's realtime channel on its own `user_tiers` row has joined (the
 * server's ok reply to the join): from then on a change to the row reaches the page. The
 * listener is set before the page opens its socket, so the reply cannot be missed.
 */
function tierChannelJoined(page: Page) {
  return new Promise<void>((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString('utf8');
        if (text.includes('realtime:user-tier-') && text.includes('phx_reply') && text.includes('"status":"ok"')) {
          resolve();
        }
      });
    });
  });
}

/** A checkout sale as the webhook records it (service role only), for the buyer's e-mail. */
async function recordSale(email: string, orderId: string, tier: Exclude<Tier, 'ebook'>) {
  const offer = unlockOffer(tier);
  const { data, error } = await admin.rpc('record_purchase', {
    p_provider: 'stripe',
    p_event_id: `evt_${randomUUID()}`,
    p_order_id: orderId,
    p_email: email,
    p_product: offer.name,
    p_tier: tier,
    p_amount_cents: Math.round(offer.price * 100),
    p_currency: 'USD',
    p_occurred_at: new Date().toISOString(),
  });
  expect(error).toBeNull();
  expect(data).toMatchObject({ duplicate: false, account: 'confirmed' });
}

async function recordRefund(orderId: string) {
  const { data, error } = await admin.rpc('record_refund', {
    p_provider: 'stripe',
    p_event_id: `evt_${randomUUID()}`,
    p_order_id: orderId,
    p_occurred_at: new Date().toISOString(),
  });
  expect(error).toBeNull();
  expect(data).toMatchObject({ duplicate: false, found: true });
}

test('with /resources open, a purchase unlocks the cards live and a refund locks them again', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser();
  await signInAs(page, user);
  const joined = tierChannelJoined(page);
  await page.goto('/resources');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
  await expect(unlockLinks(page)).toHaveCount(resourceCards.length);
  await joined;

  // A sale recorded while the page is open: the user's first tier (an INSERT of their row).
  const orderId = `cs_${randomUUID()}`;
  await recordSale(user.email, orderId, 'foundation');
  await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
  await expect(page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') })).toBeVisible();
  await expect(unlockLinks(page)).toHaveCount(lockedCount('foundation'));
  await expect(page.getByText(/No active subscription/)).toHaveCount(0);

  // The order is refunded: nothing else is held, so the row stays with tier null (an UPDATE).
  await recordRefund(orderId);
  await expect(page.getByText(/No active subscription/)).toBeVisible();
  await expect(unlockLinks(page)).toHaveCount(lockedCount(null));
  await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(0);
  await expect(page.getByText('Current Tier:', { exact: false })).toHaveCount(0);
});

test('/upgrade tells a visitor how to get in', async ({ page }) => {
  await page.goto('/upgrade');
  const box = page.getByRole('region', { name: 'Getting to your files' });
  await expect(box).toContainText('Check your inbox for the e-mail “Your files are ready”');
  await expect(box).toContainText('Sign in with the e-mail address you used at checkout.');
  await expect(page.getByRole('region', { name: 'Your files are waiting' })).toHaveCount(0);
  await expectAccessible(page);
  await box.getByRole('link', { name: 'Sign in to your files' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('/upgrade tells a signed-in buyer their tier, in the same box, and links to their files', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'accelerated' });
  await signInAs(page, user);
  await page.goto('/upgrade');
  const box = page.getByRole('region', { name: 'Your files are waiting' });
  await expect(box.getByRole('status')).toHaveText('Your tier: Accelerated Success');
  await expect(box).toContainText(`Signed in as ${user.email}.`);
  await expect(page.getByRole('region', { name: 'Getting to your files' })).toHaveCount(0);
  await expectAccessible(page);
  await box.getByRole('link', { name: 'Go to your files' }).click();
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByText('Current Tier: Accelerated Success')).toBeVisible();
});

test("/resources' header: a way home, and the account menu with the user's links", async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'ebook' });
  await signInAs(page, user);
  await page.goto('/resources');
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Yes, You Can! home' })).toHaveAttribute('href', '/');

  await header.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'My Resources' })).toHaveAttribute('href', '/resources');
  await expect(menu.getByRole('menuitem', { name: 'Upload Resources' })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: 'Members' })).toHaveCount(0);
  await expectAccessible(page);

  // The menu's Sign Out is the page's own: home with the toast, not bounced to /auth.
  await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page.getByText('Signed out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('staff find the staff pages in the account menu', async ({ page, makeUser }) => {
  const user = await makeUser({ staff: true });
  await signInAs(page, user);
  await page.goto('/resources');
  await page.getByRole('banner').getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Upload Resources' })).toHaveAttribute('href', '/admin-upload');
  await expect(menu.getByRole('menuitem', { name: 'Members' })).toHaveAttribute('href', '/staff/members');
  await menu.getByRole('menuitem', { name: 'Upload Resources' }).click();
  await expect(page).toHaveURL(/\/admin-upload$/);
});

/** Words of a link's text that the browser laid out over more than one line. */
function wordsSplitAcrossLines(link: Locator) {
  return link.evaluate((element) => {
    const split: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        // A word on one line has one box; a word broken over lines has one per line.
        if (range.getClientRects().length > 1) split.push(match[0]);
      }
    }
    return split;
  });
}

test('at 360 px no file name breaks mid-word, and a locked card keeps its call to action in colour', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'foundation' });
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, user);
  await page.goto('/resources');
  const files = resourceCards
    .filter((card) => tierRank(card.tier) <= tierRank('foundation'))
    .flatMap((card) => card.sampleFiles);
  for (const file of files) {
    const link = page.getByRole('link', { name: downloadLinkName(file) });
    await expect(link).toBeVisible();
    expect(await wordsSplitAcrossLines(link), file).toEqual([]);
  }
  // Some titles do wrap at this width: the check above looked at real line breaks.
  const tallest = await page
    .getByRole('link', { name: downloadLinkName('session-4-perfect-is-not-required.mp3') })
    .evaluate((element) => element.getBoundingClientRect().height);
  expect(tallest).toBeGreaterThan(60);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  const roadmap = page.getByRole('article', { name: '90-Day Publishing Roadmap' });
  const offer = unlockOffer('complete');
  const cta = roadmap.getByRole('link', { name: `Unlock with ${offer.name} (${formatPrice(offer.price)})` });
  await expect(cta).toHaveAttribute('href', '/bundles');
  // Nothing between the button and the page fades or greys it...
  const fading = await cta.evaluate((element) => {
    const found: string[] = [];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.filter !== 'none' || Number(style.opacity) < 1)
        found.push(`${node.tagName}: ${style.filter} ${style.opacity}`);
    }
    return found;
  });
  expect(fading).toEqual([]);
  // ...while the card's content is greyed.
  const title = roadmap.getByRole('heading', { name: '90-Day Publishing Roadmap' });
  expect(
    await title.evaluate((element) => {
      for (let node: Element | null = element; node; node = node.parentElement) {
        if (getComputedStyle(node).filter.includes('grayscale')) return true;
      }
      return false;
    }),
  ).toBe(true);
});

test('cards with few files leave no large empty gaps', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, user);
  await page.goto('/resources');
  await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(
    resourceCards.filter((card) => tierRank(card.tier) <= tierRank('foundation')).flatMap((card) => card.sampleFiles)
      .length,
  );
  const boxes = await page.getByRole('article').evaluateAll((articles) =>
    articles.map((article) => {
      const box = article.getBoundingClientRect();
      const content = [...article.querySelectorAll('h3, p, a, button, li')].map((el) => el.getBoundingClientRect());
      const contentBottom = Math.max(...content.map((rect) => rect.bottom));
      return { left: Math.round(box.left), top: box.top, bottom: box.bottom, emptyBelow: box.bottom - contentBottom };
    }),
  );
  // Inside a card: no more than its padding below the last thing in it.
  for (const box of boxes) expect(box.emptyBelow).toBeLessThanOrEqual(32);
  // Between cards of a column: the usual gap, not the height of a taller neighbour.
  const columns = new Map<number, typeof boxes>();
  for (const box of boxes) columns.set(box.left, [...(columns.get(box.left) ?? []), box]);
  expect(columns.size).toBeGreaterThan(1);
  for (const column of columns.values()) {
    const sorted = column.sort((a, b) => a.top - b.top);
    for (let index = 1; index < sorted.length; index += 1) {
      expect(sorted[index]!.top - sorted[index - 1]!.bottom).toBeLessThanOrEqual(24);
    }
  }
});
