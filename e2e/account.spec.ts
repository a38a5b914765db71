import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createClient } from '@supabase/supabase-js';
import ws from 'ws';
import { e2eEnv } from './env';
import { admin, anonClient, expect, signInAs, test, type TestUser } from './fixtures';

/**
 * Leaving, end to end: a member downloads their data and deletes their account; the old
 * session then reads and signs nothing and the purchase stays, unattached; staff erase a
 * member with a reason (audited) and are refused for a staff member.
 */

/** A sale recorded as the checkout webhook records it; attaches to the confirmed account. */
async function recordSale(email: string, orderId: string) {
  const { error } = await admin.rpc('record_purchase', {
    p_provider: 'stripe',
    p_event_id: `evt_${orderId}`,
    p_order_id: orderId,
    p_email: email,
    p_product: 'ebook',
    p_tier: 'ebook',
    p_amount_cents: 2495,
    p_currency: 'USD',
    p_occurred_at: new Date().toISOString(),
  });
  expect(error).toBeNull();
}

/** A client that sends only this access token, as a tab still holding it would. */
function holding(accessToken: string) {
  return createClient(e2eEnv.supabaseUrl, e2eEnv.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${accessToken}` } },
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
}

async function purchase(orderId: string) {
  const { data, error } = await admin
    .from('purchases')
    .select('user_id, account_removed_at, status')
    .eq('order_id', orderId)
    .single();
  expect(error).toBeNull();
  return data;
}

test('a member downloads their data, deletes their account, and the old session can do nothing', async ({
  page,
  context,
  makeUser,
}) => {
  const member = await makeUser();
  const orderId = `e2e-${randomUUID()}`;
  await recordSale(member.email, orderId);
  const file = `ebook/e2e-${randomUUID()}/guide.pdf`;
  const uploaded = await admin.storage
    .from('resources')
    .upload(file, new Blob(['%PDF-1.4 e2e'], { type: 'application/pdf' }), { contentType: 'application/pdf' });
  expect(uploaded.error).toBeNull();
  try {
    const session = await signInAs(page, member);
    await page.goto('/resources');
    await expect(page.getByRole('heading', { level: 1, name: 'Subscriber Resources' })).toBeVisible();
    // A second tab, signed in the same way (shared storage), to see it end cleanly.
    const other = await context.newPage();
    await other.goto('/resources');
    await expect(other.getByRole('heading', { level: 1, name: 'Subscriber Resources' })).toBeVisible();

    // The old session lists the paid file while the account lives: the refusal later means something.
    const folder = file.slice(0, file.lastIndexOf('/'));
    const listed = await holding(session.access_token).storage.from('resources').list(folder);
    expect(listed.data?.map((entry) => `${folder}/${entry.name}`)).toContain(file);

    // Download my data.
    await page.getByRole('button', { name: 'Account menu' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Download my data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^yes-you-can-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      account: { id: string; email: string; signed_up_at: string; last_sign_in_at: string | null };
      tier: { tier: string | null; source: string | null };
      purchases: { order_id: string; status: string; amount_cents: number }[];
    };
    expect(data.account).toMatchObject({ id: member.id, email: member.email });
    expect(Date.parse(data.account.signed_up_at)).not.toBeNaN();
    expect(Date.parse(data.account.last_sign_in_at ?? '')).not.toBeNaN();
    expect(data.tier).toEqual(expect.objectContaining({ tier: 'ebook', source: 'purchase' }));
    expect(data.purchases).toEqual([
      expect.objectContaining({ order_id: orderId, status: 'paid', amount_cents: 2495 }),
    ]);
    await expect(page.getByText('Your data is downloaded')).toBeVisible();

    // Delete my account: a wrong password is refused at the field, then the right one.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account' });
    await expect(dialog.getByText(/purchase records stay in our books/)).toBeVisible();
    await dialog.getByLabel('Your password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('That password is not right.');
    await dialog.getByLabel('Your password').fill(member.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page.getByText('Your account is deleted')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
    // The other tab noticed and went to sign in.
    await expect(other).toHaveURL(/\/auth/);

    // Sign-in fails; the refresh token fails.
    const again = await anonClient().auth.signInWithPassword({ email: member.email, password: member.password });
    expect(again.error).not.toBeNull();
    const refreshed = await anonClient().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).not.toBeNull();

    // The old access token, not yet expired: reads nothing, signs nothing.
    const old = holding(session.access_token);
    for (const table of ['profiles', 'user_tiers', 'purchases'] as const) {
      const read = await old.from(table).select('*');
      expect(read.data, table).toEqual([]);
    }
    expect((await old.storage.from('resources').list(folder)).data ?? []).toEqual([]);
    expect((await old.storage.from('resources').createSignedUrl(file, 60)).error).not.toBeNull();

    // The purchase stays, unattached for good.
    expect(await purchase(orderId)).toEqual({ user_id: null, account_removed_at: expect.any(String), status: 'paid' });
  } finally {
    await admin.storage.from('resources').remove([file]);
    await admin.from('purchases').delete().eq('order_id', orderId);
  }
});

/** Signs in as staff and opens `member` on /staff/members. */
async function openMember(page: import('@playwright/test').Page, staff: TestUser, member: TestUser) {
  await signInAs(page, staff);
  await page.goto('/staff/members');
  await page.getByRole('searchbox', { name: 'Search by e-mail' }).fill(member.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await page.getByRole('button', { name: `Manage ${member.email}` }).click();
  const detail = page.getByRole('region', { name: member.email });
  await expect(detail.getByRole('heading', { name: member.email })).toBeFocused();
  return detail;
}

test('staff erase a member with a reason; the erasure is audited and the purchase stays', async ({
  page,
  makeUser,
}) => {
  const staff = await makeUser({ staff: true });
  const member = await makeUser();
  const orderId = `e2e-${randomUUID()}`;
  await recordSale(member.email, orderId);
  try {
    const detail = await openMember(page, staff, member);
    await detail.getByRole('button', { name: 'Erase this member' }).click();
    const dialog = page.getByRole('dialog', { name: `Erase ${member.email}` });
    await dialog.getByLabel('Type their e-mail address to confirm').fill(member.email);
    await dialog.getByLabel('Reason').fill('Asked by e-mail, e2e');
    await dialog.getByRole('button', { name: 'Erase member' }).click();
    await expect(page.getByText(`${member.email} is erased`)).toBeVisible();
    await expect(detail).toBeHidden();

    expect((await admin.auth.admin.getUserById(member.id)).data.user).toBeNull();
    const { data: audit } = await admin
      .from('account_erasures')
      .select('kind, requested_by, reason, completed_at')
      .eq('erased_user', member.id);
    expect(audit).toEqual([
      { kind: 'staff', requested_by: staff.id, reason: 'Asked by e-mail, e2e', completed_at: expect.any(String) },
    ]);
    expect(await purchase(orderId)).toEqual({ user_id: null, account_removed_at: expect.any(String), status: 'paid' });
  } finally {
    await admin.from('purchases').delete().eq('order_id', orderId);
  }
});

test('staff cannot erase another staff member', async ({ page, makeUser }) => {
  const staff = await makeUser({ staff: true });
  const colleague = await makeUser({ staff: true });
  const detail = await openMember(page, staff, colleague);
  await detail.getByRole('button', { name: 'Erase this member' }).click();
  const dialog = page.getByRole('dialog', { name: `Erase ${colleague.email}` });
  await dialog.getByLabel('Type their e-mail address to confirm').fill(colleague.email);
  await dialog.getByLabel('Reason').fill('Trying, e2e');
  await dialog.getByRole('button', { name: 'Erase member' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Staff accounts cannot be erased here');
  expect((await admin.auth.admin.getUserById(colleague.id)).data.user?.id).toBe(colleague.id);
  const { data: audit } = await admin.from('account_erasures').select('id').eq('erased_user', colleague.id);
  expect(audit).toEqual([]);
});
