import { randomUUID } from 'node:crypto';
import { resourceCards } from '../src/content/resources';
import { tierRank } from '../src/content/tiers';
import { e2eEnv } from './env';
import { openMailLink, readInbox } from './inbox';
import { admin, expect, test, waitForHydration } from './fixtures';
import { deliverSale } from './webhook';

// Pre-hijacked accounts, sequence A of docs/database.md, in the browser: a stranger registers the
// buyer's address first, through the public API with the public key (no app involved). The buyer
// pays, the webhook invites the address, the buyer accepts in the site. From that moment the
// stranger is refused everywhere and the buyer holds their files.

const ATTACKER_PASSWORD = 'attacker-chose-this';

/** POST /auth/v1/<path> as anyone can, with the public key. */
async function attackerPost(path: string, body: unknown) {
  const res = await fetch(`${e2eEnv.supabaseUrl}/auth/v1/${path}`, {
    method: 'POST',
    headers: { apikey: e2eEnv.anonKey, Authorization: `Bearer ${e2eEnv.anonKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const foundationFiles = resourceCards
  .filter((card) => tierRank(card.tier) <= tierRank('foundation'))
  .flatMap((card) => card.sampleFiles).length;

test("whoever registered the buyer's address first is refused once the buyer accepts the invitation", async ({
  page,
  browser,
}) => {
  const email = `e2e-prehijack-${randomUUID()}@example.com`;
  try {
    const signUp = await attackerPost('signup', { email, password: ATTACKER_PASSWORD });
    expect(signUp.status).toBe(200);
    expect(signUp.body.access_token).toBeUndefined();
    expect(await attackerPost('token?grant_type=password', { email, password: ATTACKER_PASSWORD })).toMatchObject({
      status: 400,
    });

    expect(await deliverSale(email, 'foundation')).toMatchObject({ account: 'unconfirmed', invitation: 'invited' });
    // Newest first: the invitation, then the confirmation the stranger's sign-up sent to the buyer.
    await expect
      .poll(async () => (await readInbox(email)).map((m) => new URL(m.link).searchParams.get('type')))
      .toEqual(['invite', 'signup']);
    const [invitation] = await readInbox(email);

    // The buyer accepts in the site and chooses a password.
    await openMailLink(page, invitation!.link);
    await expect(page).toHaveURL(/\/auth\/set-password/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome! Your files are ready' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('buyer-pass-1');
    await page.getByLabel('Confirm password').fill('buyer-pass-1');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page).toHaveURL(/\/resources$/);
    await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
    await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(foundationFiles);

    // The stranger, in a browser of their own, through the site's form: refused.
    const elsewhere = await browser.newContext();
    try {
      const attacker = await elsewhere.newPage();
      await attacker.goto('/auth');
      await waitForHydration(attacker);
      const form = attacker.getByRole('tabpanel', { name: 'Sign In' });
      await form.getByRole('textbox', { name: 'Email' }).fill(email);
      await form.getByLabel('Password', { exact: true }).fill(ATTACKER_PASSWORD);
      await form.getByRole('button', { name: 'Sign In' }).click();
      await expect(attacker.getByText('Invalid login credentials')).toBeVisible();
      await expect(attacker).toHaveURL(/\/auth$/);
    } finally {
      await elsewhere.close();
    }
    // And through the API: no password, no new sign-up, no session.
    expect(await attackerPost('token?grant_type=password', { email, password: ATTACKER_PASSWORD })).toMatchObject({
      status: 400,
      body: { error_code: 'invalid_credentials' },
    });
    const again = await attackerPost('signup', { email, password: ATTACKER_PASSWORD });
    expect(again.status).toBe(200);
    expect(again.body.access_token).toBeUndefined();

    // The buyer still holds their files after a reload.
    await page.reload();
    await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
    await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(foundationFiles);
  } finally {
    const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
    const user = data.users.find((u) => u.email === email);
    if (user) await admin.auth.admin.deleteUser(user.id);
  }
});
