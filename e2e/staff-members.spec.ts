import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { admin, anonClient, expect, expectAccessible, signInAs, test, type TestUser } from './fixtures';

/**
 * /staff/members against the real functions: staff search, grant with a reason,
 * see the tier and where it came from, revoke, export; everyone else is refused, by the
 * page and, what matters, by the database.
 */

/**
 * Members whose e-mails share `token`, so a search finds exactly these (other tests run
 * alongside). No password: they never sign in, and hashing 26 passwords is slow.
 */
async function makeMembers(token: string, count: number): Promise<{ id: string; email: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, n) => {
      const email = `e2e-members-${token}-${String(n).padStart(2, '0')}@example.com`;
      const { data, error } = await admin.auth.admin.createUser({ email, email_confirm: true });
      if (error || !data.user) throw new Error(`createUser failed: ${error?.message}`);
      return { id: data.user.id, email };
    }),
  );
}

/** A Stripe sale, recorded as the checkout webhook records it. */
async function recordSale(email: string, orderId: string) {
  const { error } = await admin.rpc('record_purchase', {
    p_provider: 'stripe',
    p_event_id: `evt_${orderId}`,
    p_order_id: orderId,
    p_email: email,
    p_product: 'foundation',
    p_tier: 'foundation',
    p_amount_cents: 19700,
    p_currency: 'USD',
    p_occurred_at: new Date().toISOString(),
  });
  expect(error).toBeNull();
}

test('staff search by e-mail in any case and page through 25 at a time', async ({ page, makeUser }) => {
  const staff = await makeUser({ staff: true });
  const token = randomUUID().slice(0, 8);
  const members = await makeMembers(token, 26);
  try {
    await signInAs(page, staff);
    await page.goto('/staff/members');
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search by e-mail' }).fill(`E2E-MEMBERS-${token.toUpperCase()}`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('Showing 1–25 of 26 matching')).toBeVisible();
    // The header row and 25 members, in e-mail order.
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(26);
    await expect(page.getByRole('rowheader').first()).toHaveText(members[0]!.email);
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Showing 26–26 of 26')).toBeVisible();
    await expect(page.getByRole('rowheader')).toHaveText([members[25]!.email]);
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  } finally {
    await Promise.all(members.map((member) => admin.auth.admin.deleteUser(member.id)));
  }
});

test('staff export every member the search matches, all pages, as CSV', async ({ page, makeUser }) => {
  const staff = await makeUser({ staff: true });
  const token = randomUUID().slice(0, 8);
  const members = await makeMembers(token, 26);
  const buyer = members[0]!;
  const orderId = `cs_e2e_${token}`;
  try {
    await recordSale(buyer.email, orderId);
    await signInAs(page, staff);
    await page.goto('/staff/members');
    await page.getByRole('searchbox', { name: 'Search by e-mail' }).fill(`e2e-members-${token}`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('Showing 1–25 of 26 matching')).toBeVisible();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Email,Tier,Tier source,Purchases,Joined,Last sign-in,User ID');
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1).map((line) => line.split(','));
    expect(rows.map((cells) => cells[0])).toEqual(members.map((member) => member.email));
    expect(rows[0]!.slice(1, 4)).toEqual(['foundation', 'purchase', '1']);
    expect(rows[0]![6]).toBe(buyer.id);
    expect(rows[1]!.slice(1, 4)).toEqual(['', '', '0']);
    await expect(page.getByText(`${download.suggestedFilename()}: 26 members.`)).toBeVisible();
  } finally {
    await admin.from('purchases').delete().eq('order_id', orderId);
    await Promise.all(members.map((member) => admin.auth.admin.deleteUser(member.id)));
  }
});

/** Signs in as staff and opens `member` on /staff/members, by searching their e-mail. */
async function openMember(page: Page, staff: TestUser, member: TestUser) {
  await signInAs(page, staff);
  await page.goto('/staff/members');
  await page.getByRole('searchbox', { name: 'Search by e-mail' }).fill(member.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(member.email) });
  await row.getByRole('button', { name: `Manage ${member.email}` }).click();
  const detail = page.getByRole('region', { name: member.email });
  await expect(detail.getByRole('heading', { name: member.email })).toBeFocused();
  return { row, detail };
}

test('staff grant a tier with a reason, and see it, where it came from and the audit', async ({ page, makeUser }) => {
  const staff = await makeUser({ staff: true });
  const member = await makeUser();
  const { row, detail } = await openMember(page, staff, member);
  await expect(detail.getByText('Nothing: no paid purchase and no staff grant')).toBeVisible();

  // A grant needs a reason: refused at the field, nothing sent.
  await detail.getByRole('button', { name: 'Grant a tier' }).click();
  const grant = page.getByRole('dialog', { name: `Grant a tier to ${member.email}` });
  await grant.getByRole('button', { name: 'Grant tier' }).click();
  await expect(grant.getByText('Give a reason: it is kept in the audit log.')).toBeVisible();
  await grant.getByLabel('Tier').selectOption('complete');
  await grant.getByLabel('Reason').fill('Conference speaker, e2e');
  await grant.getByRole('button', { name: 'Grant tier' }).click();
  await expect(page.getByText('Tier granted')).toBeVisible();
  await expect(grant).toBeHidden();

  await expect(detail.getByText(`Staff grant by ${staff.email}`)).toBeVisible();
  await expect(detail.getByText('Reason: Conference speaker, e2e')).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Complete Transformation' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Staff grant' })).toBeVisible();

  // The audit has who and why (and when: changed_at).
  const { data: audit } = await admin
    .from('tier_audit')
    .select('new_tier, changed_by, reason, source')
    .eq('target_user', member.id)
    .eq('source', 'staff_grant');
  expect(audit).toEqual([
    { new_tier: 'complete', changed_by: staff.id, reason: 'Conference speaker, e2e', source: 'staff_grant' },
  ]);
});

test('staff revoke a staff grant with a reason, and the tier falls back to the purchase', async ({
  page,
  makeUser,
}) => {
  const staff = await makeUser({ staff: true });
  const buyer = await makeUser();
  const orderId = `cs_e2e_${randomUUID().slice(0, 8)}`;
  try {
    await recordSale(buyer.email, orderId);
    const { error } = await admin
      .from('tier_grants')
      .insert({ user_id: buyer.id, tier: 'accelerated', reason: 'Scholarship, e2e', granted_by: staff.id });
    expect(error).toBeNull();
    const { row, detail } = await openMember(page, staff, buyer);
    await expect(detail.getByText('Reason: Scholarship, e2e')).toBeVisible();
    await expect(detail.getByRole('row', { name: new RegExp(orderId) })).toContainText('$197.00');
    await expect(row.getByRole('cell', { name: 'Accelerated Success' })).toBeVisible();

    await detail.getByRole('button', { name: 'Revoke staff grant' }).click();
    const revoke = page.getByRole('dialog', { name: `Revoke the staff grant of ${buyer.email}` });
    await revoke.getByLabel('Reason').fill('Scholarship ended');
    await revoke.getByRole('button', { name: 'Revoke grant' }).click();
    await expect(page.getByText('Staff grant revoked')).toBeVisible();
    await expect(detail.getByText(`Purchase: Stripe order ${orderId}, product foundation`)).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Foundation Builder' })).toBeVisible();
    await expect(detail.getByText(`Revoked by ${staff.email}`)).toContainText('Scholarship ended');
    await expect(detail.getByRole('button', { name: 'Revoke staff grant' })).toHaveCount(0);

    const { data: audit } = await admin
      .from('tier_audit')
      .select('new_tier, changed_by, reason')
      .eq('target_user', buyer.id)
      .eq('source', 'staff_revoke');
    expect(audit).toEqual([{ new_tier: 'foundation', changed_by: staff.id, reason: 'Scholarship ended' }]);
  } finally {
    await admin.from('purchases').delete().eq('order_id', orderId);
  }
});

test('at 360 px, with a member open: no sideways page scroll, tables scroll in their own regions, no axe violations', async ({
  page,
  makeUser,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const staff = await makeUser({ staff: true });
  const member = await makeUser();
  const orderId = `cs_e2e_${randomUUID().slice(0, 8)}`;
  try {
    await recordSale(member.email, orderId);
    const { detail } = await openMember(page, staff, member);
    await expect(detail.getByRole('row', { name: new RegExp(orderId) })).toBeAttached();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    for (const region of [
      page.getByRole('region', { name: 'Members, ordered by e-mail' }),
      detail.getByRole('region', { name: 'Purchases, newest first' }),
    ]) {
      // Wider than the phone, so it scrolls, inside itself.
      expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    }
    await expectAccessible(page);
  } finally {
    await admin.from('purchases').delete().eq('order_id', orderId);
  }
});

test('a member who is not staff is refused at /staff/members, by the page and by the database', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser();
  await signInAs(page, user);
  await page.goto('/staff/members');
  await expect(page.getByRole('heading', { name: 'Staff only' })).toBeVisible();
  await expect(page.getByText(/Managing members is for/)).toBeVisible();
  await expect(page.getByRole('searchbox')).toHaveCount(0);
  await expectAccessible(page);

  const client = anonClient();
  await client.auth.signInWithPassword({ email: user.email, password: user.password });
  const list = await client.rpc('staff_list_members', { search: '' });
  expect(list.error?.code).toBe('42501');
  const detail = await client.rpc('staff_member_detail', { target_user: user.id });
  expect(detail.error?.code).toBe('42501');
  const granted = await client.rpc('grant_tier', {
    target_user: user.id,
    new_tier: 'complete',
    reason: 'self-service',
  });
  expect(granted.error?.code).toBe('42501');
  const { data: tier } = await admin.from('user_tiers').select('tier').eq('user_id', user.id).maybeSingle();
  expect(tier?.tier ?? null).toBeNull();
});

test('a visitor at /staff/members is sent to sign in, with the way back in the URL', async ({ page }) => {
  await page.goto('/staff/members');
  await expect(page).toHaveURL(/\/auth\?next=\/staff\/members$/);
});
