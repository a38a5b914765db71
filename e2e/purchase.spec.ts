import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { resourceCards } from '../src/content/resources';
import { tierRank, type Tier } from '../src/content/tiers';
import { openMailLink, readInbox } from './inbox';
import { admin, expect, signInAs, test } from './fixtures';
import { deliverRefund, deliverSale } from './webhook';

/** How many files the cards up to `tier` hold: exactly the downloads the page offers. */
function filesUpTo(tier: Tier): number {
  return resourceCards.filter((card) => tierRank(card.tier) <= tierRank(tier)).flatMap((card) => card.sampleFiles)
    .length;
}

/** The invitation's link (to the site's confirm page): the stand-in's inbox, or Mailpit on a real stack (not instant there). */
async function invitationLink(email: string): Promise<string> {
  await expect.poll(async () => (await readInbox(email)).length).toBe(1);
  const [mail] = await readInbox(email);
  expect(mail?.subject).toBe('Your files are ready');
  return mail?.link ?? '';
}

/**
 * Resolves once the page's realtime channel on its own `user_tiers` row has joined: from then on
 * a change to the row reaches the page (the listener is set before the page opens its socket).
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

test('a purchase by a new e-mail: the invitation arrives, the buyer sets a password and opens the bought files', async ({
  page,
}) => {
  const email = `e2e-buyer-${randomUUID()}@example.com`;
  try {
    expect(await deliverSale(email, 'foundation')).toMatchObject({
      outcome: 'recorded',
      account: 'none',
      invitation: 'invited',
    });

    await openMailLink(page, await invitationLink(email));
    await expect(page).toHaveURL(/\/auth\/set-password/);
    await page.getByLabel('New password', { exact: true }).fill('buyer-pass-1');
    await page.getByLabel('Confirm password').fill('buyer-pass-1');
    await page.getByRole('button', { name: 'Set Password' }).click();

    await expect(page).toHaveURL(/\/resources$/);
    await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
    await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(filesUpTo('foundation'));
  } finally {
    const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
    const user = data.users.find((u) => u.email === email);
    if (user) await admin.auth.admin.deleteUser(user.id);
  }
});

test('with /resources open, a purchase through the webhook unlocks the cards live and its refund locks them again', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser();
  await signInAs(page, user);
  const joined = tierChannelJoined(page);
  await page.goto('/resources');
  const downloads = page.getByRole('link', { name: /^Download / });
  await expect(page.getByText(/No active subscription/)).toBeVisible();
  await expect(downloads).toHaveCount(0);
  await joined;

  const orderId = `e2e-${randomUUID()}`;
  expect(await deliverSale(user.email, 'foundation', orderId)).toMatchObject({
    outcome: 'recorded',
    account: 'confirmed',
  });
  await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
  await expect(downloads).toHaveCount(filesUpTo('foundation'));

  expect(await deliverRefund(orderId, 'foundation')).toEqual({ ok: true, outcome: 'refunded' });
  await expect(page.getByText(/No active subscription/)).toBeVisible();
  await expect(downloads).toHaveCount(0);
});
