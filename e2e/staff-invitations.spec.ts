import { randomUUID } from 'node:crypto';
import { admin, expect, expectAccessible, signInAs, test } from './fixtures';

// A buyer whose invitation could not go out is never waiting unseen. Staff see them on
// /staff/members with the reason and queue the invitation again; the owner touches no row.
test('staff see a buyer whose invitation failed, with why, and queue it again', async ({ page, makeUser }) => {
  const email = `e2e-waiting-${randomUUID()}@example.com`;
  const orderId = `e2e-${randomUUID()}`;
  // The sale recorded without an account, and the invitation claimed and failed, as the webhook
  // records a mail error.
  const sale = await admin.rpc('record_purchase', {
    p_provider: 'shopify',
    p_event_id: `wh-${orderId}`,
    p_order_id: orderId,
    p_email: email,
    p_product: 'foundation',
    p_tier: 'foundation',
    p_amount_cents: 4900,
    p_currency: 'USD',
    p_occurred_at: new Date().toISOString(),
  });
  expect(sale.error).toBeNull();
  const claim = await admin.rpc('claim_invitation', { p_email: email });
  expect(typeof claim.data).toBe('string');
  const failed = await admin.rpc('finish_invitation', {
    p_email: email,
    p_claim: claim.data as string,
    p_outcome: 'failed',
    p_reason: 'unexpected_failure: SMTP refused the message',
  });
  expect(failed.data).toBe(true);

  const staff = await makeUser({ staff: true });
  await signInAs(page, staff);
  await page.goto('/staff/members');
  const section = page.getByRole('region', { name: 'Buyers waiting for their invitation' });
  const item = section.getByRole('listitem').filter({ hasText: email });
  await expect(item).toContainText('Failed: unexpected_failure: SMTP refused the message');
  await expectAccessible(page);

  await item.getByRole('button', { name: `Send the invitation to ${email} again` }).click();
  await expect(page.getByText('Invitation queued')).toBeVisible();
  await expect(item).toContainText('Waiting to be sent');
  const { data } = await admin.from('buyer_invitations').select('status, attempts').eq('email', email).single();
  expect(data).toEqual({ status: 'pending', attempts: 0 });
});
