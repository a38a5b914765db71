import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { admin, anonClient, expect, test } from './fixtures';
import { openMailLink, readInbox, type Mail } from './inbox';
import { deliverSale } from './webhook';

// Every way back in for a returning buyer, through the real webhook, the account function and
// the auth server's e-mails (docs/decisions/065-account-lifecycle-and-the-invitation-ledger.md).

async function mails(email: string, count: number): Promise<Mail[]> {
  await expect.poll(async () => (await readInbox(email)).length).toBe(count);
  return readInbox(email);
}

async function userByEmail(email: string) {
  const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
  return data.users.find((u) => u.email === email) ?? null;
}

async function acceptInvitation(page: Page, mail: Mail, password: string) {
  expect(mail.subject).toBe('Your files are ready');
  await openMailLink(page, mail.link);
  await expect(page).toHaveURL(/\/auth\/set-password$/);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page).toHaveURL(/\/resources$/);
}

test('a buyer who deleted their account buys again: invited again, and in with the new purchase', async ({ page }) => {
  const email = `e2e-returning-${randomUUID()}@example.com`;
  const orders = [`e2e-${randomUUID()}`, `e2e-${randomUUID()}`];
  try {
    expect(await deliverSale(email, 'ebook', orders[0])).toMatchObject({ invitation: 'invited' });
    await acceptInvitation(page, (await mails(email, 1))[0]!, 'first-password');

    const member = anonClient();
    expect((await member.auth.signInWithPassword({ email, password: 'first-password' })).error).toBeNull();
    const deleted = await member.functions.invoke('account/delete', { body: { password: 'first-password' } });
    expect(deleted.error).toBeNull();
    expect(await userByEmail(email)).toBeNull();

    // The second sale is invited like a new buyer's, and the link gets them in.
    expect(await deliverSale(email, 'foundation', orders[1])).toMatchObject({ invitation: 'invited' });
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await acceptInvitation(page, (await mails(email, 2))[0]!, 'second-password');
    await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
    // Both sales carry the fixture's one processed_at, so they are told apart by order id.
    const { data: purchases } = await admin.from('purchases').select('order_id, user_id').eq('email', email);
    const user = await userByEmail(email);
    expect(purchases?.toSorted((a, b) => orders.indexOf(a.order_id) - orders.indexOf(b.order_id))).toEqual([
      { order_id: orders[0], user_id: null },
      { order_id: orders[1], user_id: user!.id },
    ]);
  } finally {
    const user = await userByEmail(email);
    if (user) await admin.auth.admin.deleteUser(user.id);
    await admin.from('purchases').delete().eq('email', email);
  }
});

test('an erased buyer who never accepted: the next account at the address inherits nothing', async ({ makeUser }) => {
  const email = `e2e-erased-${randomUUID()}@example.com`;
  const orderId = `e2e-${randomUUID()}`;
  try {
    expect(await deliverSale(email, 'complete', orderId)).toMatchObject({ invitation: 'invited' });
    const invited = await userByEmail(email);
    expect(invited?.email_confirmed_at ?? null).toBeNull();

    const staff = await makeUser({ staff: true });
    const desk = anonClient();
    expect((await desk.auth.signInWithPassword({ email: staff.email, password: staff.password })).error).toBeNull();
    const erased = await desk.functions.invoke('account/erase', {
      body: { user_id: invited!.id, email, reason: 'Asked to be forgotten, e2e' },
    });
    expect(erased.error).toBeNull();

    // Someone confirms a new account at the address, with its code.
    const newcomer = anonClient();
    expect((await newcomer.auth.signUp({ email, password: 'newcomer-password' })).error).toBeNull();
    const [confirmation] = await mails(email, 2);
    expect(confirmation!.subject).toBe('Confirm your e-mail address for Yes, You Can!');
    const verified = await newcomer.auth.verifyOtp({ email, token: confirmation!.code, type: 'signup' });
    expect(verified.error).toBeNull();
    const { data: purchase } = await admin
      .from('purchases')
      .select('user_id, account_removed_at')
      .eq('order_id', orderId)
      .single();
    expect(purchase).toEqual({ user_id: null, account_removed_at: expect.any(String) });
    const { data: tier } = await newcomer.from('user_tiers').select('tier').maybeSingle();
    expect(tier?.tier ?? null).toBeNull();
  } finally {
    const user = await userByEmail(email);
    if (user) await admin.auth.admin.deleteUser(user.id);
    await admin.from('purchases').delete().eq('order_id', orderId);
  }
});
