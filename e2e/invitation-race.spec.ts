import { randomUUID } from 'node:crypto';
import { openMailLink, readInbox } from './inbox';
import { admin, expect, test } from './fixtures';
import { deliverSale } from './webhook';

// A retry racing a slow first try (one webhook id, twice at once) and the same order
// under a new id. Each invitation replaces the previous one's token, so a second e-mail would
// leave the buyer a dead first link; the ledger lets exactly one delivery invite.
test('deliveries of one order race: the buyer receives exactly one invitation, and its link works', async ({
  page,
}) => {
  const email = `e2e-race-${randomUUID()}@example.com`;
  const orderId = `e2e-${randomUUID()}`;
  const webhookId = randomUUID();
  try {
    const answers = await Promise.all([
      deliverSale(email, 'foundation', orderId, webhookId),
      deliverSale(email, 'foundation', orderId, webhookId),
      deliverSale(email, 'foundation', orderId),
    ]);
    expect(answers.filter((a) => a.outcome === 'recorded')).toHaveLength(1);
    expect(answers.map((a) => a.invitation).sort()).toEqual(['already_handled', 'already_handled', 'invited']);

    await expect.poll(async () => (await readInbox(email)).length).toBe(1);
    const mails = await readInbox(email);
    expect(mails.map((m) => m.subject)).toEqual(['Your files are ready']);

    await openMailLink(page, mails[0]?.link ?? '');
    await expect(page).toHaveURL(/\/auth\/set-password/);
    await page.getByLabel('New password', { exact: true }).fill('race-pass-1');
    await page.getByLabel('Confirm password').fill('race-pass-1');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page).toHaveURL(/\/resources$/);
    await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
    // Still one e-mail: nothing was sent while the first was good.
    expect(await readInbox(email)).toHaveLength(1);
  } finally {
    const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
    const user = data.users.find((u) => u.email === email);
    if (user) await admin.auth.admin.deleteUser(user.id);
  }
});
