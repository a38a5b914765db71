// Whoever registers a buyer's address first never gets the buyer's account or files.
// Played as an attacker would: plain HTTP to /auth/v1 with the public (anon) key, whatever the
// app's own client does. The buyer pays through the real purchase webhook (Deno), follows the
// links the local inbox holds, and chooses a password as the set-password page does. Each
// sequence ends with the attacker refused at every step after the owner's proof, and the owner
// holding their purchase, tier and files.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_FUNCTION_SECRETS } from '../functions/service.mjs';
import { EMAIL_MAX_FREQUENCY_SECONDS, INVITE_SUBJECT } from '../auth/mail.mjs';
import { ANON_KEY } from '../keys.mjs';
import { shopifyOrder, shopifyRequest } from '../../../supabase/functions/purchase-webhook/test-support.ts';
import { anonClient, readInbox, serviceClient, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
beforeAll(async () => {
  // The repo's posture (config.toml: confirmations on), with the sample files of every card.
  server = await startStandIn();
});
afterAll(async () => {
  await server?.close();
});

const ATTACKER_PASSWORD = 'attacker-chose-this';
const OWNER_PASSWORD = 'owner-chose-this';

/** POST /auth/v1/<path> as anyone can: the public key, no app. */
async function attackerPost(path: string, body: unknown) {
  const res = await fetch(`${server.url}/auth/v1/${path}`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${ANON_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The attacker's password sign-in: never a session for them. */
async function attackerSignsIn(email: string) {
  return attackerPost('token?grant_type=password', { email, password: ATTACKER_PASSWORD });
}

/** Every way back in the attacker has once the owner has proven the address: each refused. */
async function expectAttackerRefused(email: string) {
  const signIn = await attackerSignsIn(email);
  expect(signIn).toMatchObject({ status: 400, body: { error_code: 'invalid_credentials' } });
  const mailsBefore = (await readInbox(server.url, email)).length;
  // Signing up again: GoTrue's answer for a confirmed address (no session, nothing sent).
  const again = await attackerPost('signup', { email, password: ATTACKER_PASSWORD });
  expect(again.status).toBe(200);
  expect(again.body.access_token).toBeUndefined();
  expect(again.body.identities).toEqual([]);
  // Asking for a new confirmation: nothing to confirm, nothing sent.
  expect(await attackerPost('resend', { type: 'signup', email })).toEqual({ status: 200, body: {} });
  expect((await readInbox(server.url, email)).length).toBe(mailsBefore);
  // No session of theirs exists to refresh or to read with.
  const { rows } = await server.db.query<{ n: number }>(
    `select count(*)::int as n from auth.sessions s join auth.users u on u.id = s.user_id
      where lower(u.email) = $1 and s.created_at < (select email_confirmed_at from auth.users where lower(email) = $1)`,
    [email],
  );
  expect(rows).toEqual([{ n: 0 }]);
}

/** A minute passes for the address's confirmation mails (max_frequency), with no waiting. */
async function letMinutePass(email: string) {
  await server.db.query(
    `update auth.users set confirmation_sent_at = confirmation_sent_at - make_interval(secs => $2) where lower(email) = $1`,
    [email, EMAIL_MAX_FREQUENCY_SECONDS],
  );
}

/** Follows an e-mailed link as the browser would; a client holding the session it lands with. */
async function followLink(link: string): Promise<{ type: string | null; path: string; client: SupabaseClient }> {
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location')!);
  const fragment = new URLSearchParams(location.hash.slice(1));
  expect(fragment.get('error_code')).toBeNull();
  const client = anonClient(server.url);
  const { error } = await client.auth.setSession({
    access_token: fragment.get('access_token')!,
    refresh_token: fragment.get('refresh_token')!,
  });
  expect(error).toBeNull();
  return { type: fragment.get('type'), path: location.pathname, client };
}

/**
 * What the site's confirm page does when the person presses its button on an invitation (sent
 * through the mail API, it links to the page, not to /verify): verifyOtp with the link's token hash.
 */
async function openInvitation(mail: { link: string }) {
  const client = anonClient(server.url);
  const tokenHash = new URL(mail.link).searchParams.get('token_hash') ?? '';
  const { data, error } = await client.auth.verifyOtp({ token_hash: tokenHash, type: 'invite' });
  return { error, type: data.session ? 'invite' : null, client };
}

/** Whether a link is dead: it lands with otp_expired. */
async function linkIsDead(link: string) {
  const res = await fetch(link, { redirect: 'manual' });
  return new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1)).get('error_code') === 'otp_expired';
}

let nextOrder = 8_000_000 + (process.pid % 1000) * 1000;

/** The buyer pays for the Foundation bundle: a signed Shopify delivery to the real webhook. */
async function buyerPays(email: string) {
  const order = ++nextOrder;
  const made = await shopifyRequest(
    'orders/paid',
    shopifyOrder({
      id: order,
      email,
      total_price: '49.00',
      line_items: [{ product_id: 'REPLACE_ME_shopify_product_foundation' }],
    }),
    { secret: LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET },
  );
  const res = await fetch(`${server.url}/functions/v1/purchase-webhook/shopify`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** The owner chooses a password on /auth/set-password (supabase-js updateUser, as the page does). */
async function ownerChoosesPassword(client: SupabaseClient) {
  expect((await client.auth.updateUser({ password: OWNER_PASSWORD })).error).toBeNull();
}

/** The owner holds the purchase, the tier and the files, signed in with their own password. */
async function expectOwnerHoldsFiles(email: string) {
  const client = anonClient(server.url);
  expect((await client.auth.signInWithPassword({ email, password: OWNER_PASSWORD })).error).toBeNull();
  const tier = await client.from('user_tiers').select('tier').single();
  expect(tier.data).toEqual({ tier: 'foundation' });
  const purchases = await client.from('purchases').select('email, tier, status');
  expect(purchases.data).toEqual([{ email, tier: 'foundation', status: 'paid' }]);
  const files = await client.storage.from('resources').list('foundation/affirmation-cards');
  expect(files.data?.map((f) => f.name)).toEqual(['affirmation-cards.pdf']);
  // Paid files leave through the download function, with the owner's session.
  const token = (await client.auth.getSession()).data.session?.access_token;
  const path = encodeURIComponent('foundation/affirmation-cards/affirmation-cards.pdf');
  const answer = await fetch(`${server.url}/functions/v1/download?path=${path}`, {
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  expect(answer.status).toBe(200);
  const { url } = (await answer.json()) as { url: string };
  expect((await fetch(url)).status).toBe(200);
}

describe('pre-hijacked accounts, attacked through the public API', () => {
  it('A, the purchase path: attacker signs up, buyer pays, the webhook invites, the buyer accepts', async () => {
    const email = uniqueEmail('buyer-a');
    const signUp = await attackerPost('signup', { email, password: ATTACKER_PASSWORD });
    expect(signUp.status).toBe(200);
    expect(signUp.body.access_token).toBeUndefined();
    expect(await attackerSignsIn(email)).toMatchObject({ status: 400, body: { error_code: 'email_not_confirmed' } });

    expect(await buyerPays(email)).toMatchObject({ account: 'unconfirmed', invitation: 'invited' });
    expect(await attackerSignsIn(email)).toMatchObject({ status: 400, body: { error_code: 'email_not_confirmed' } });

    const [invitation] = await readInbox(server.url, email);
    expect(invitation?.subject).toBe(INVITE_SUBJECT);
    const landed = await openInvitation(invitation!);
    expect(landed).toMatchObject({ error: null, type: 'invite' });

    await expectAttackerRefused(email);
    await ownerChoosesPassword(landed.client);
    await expectAttackerRefused(email);
    await expectOwnerHoldsFiles(email);
  });

  it('B, the sign-up path: attacker signs up, the owner signs up later and confirms from the e-mail, then buys', async () => {
    const email = uniqueEmail('buyer-b');
    expect((await attackerPost('signup', { email, password: ATTACKER_PASSWORD })).status).toBe(200);

    // The owner, a while later, with the app's own client.
    await letMinutePass(email);
    const owner = anonClient(server.url);
    const ownerSignUp = await owner.auth.signUp({
      email,
      password: 'owner-typed-at-sign-up',
      options: { emailRedirectTo: 'http://127.0.0.1:5173/auth/set-password?next=%2Fresources' },
    });
    expect(ownerSignUp.error).toBeNull();
    expect(ownerSignUp.data.session).toBeNull();
    const [confirmation, attackersMail] = await readInbox(server.url, email);
    expect(confirmation?.subject).toBe('Confirm your e-mail address for Yes, You Can!');
    expect(await linkIsDead(attackersMail!.link)).toBe(true);

    const landed = await followLink(confirmation!.link);
    expect(landed).toMatchObject({ type: 'signup', path: '/auth/set-password' });
    await expectAttackerRefused(email);
    // Neither password typed before the address was proven opens it: the owner chooses one.
    expect(
      (await anonClient(server.url).auth.signInWithPassword({ email, password: 'owner-typed-at-sign-up' })).error,
    ).toMatchObject({ code: 'invalid_credentials' });
    await ownerChoosesPassword(landed.client);

    expect(await buyerPays(email)).toMatchObject({ account: 'confirmed' });
    await expectAttackerRefused(email);
    await expectOwnerHoldsFiles(email);
  });

  it('sign-up over a pending invitation: the buyer pays first, the attacker signs up before the buyer accepts', async () => {
    const email = uniqueEmail('buyer-c');
    expect(await buyerPays(email)).toMatchObject({ account: 'none', invitation: 'invited' });

    // Within a minute of the invitation GoTrue sends nothing more: 429, nothing changes.
    const soon = await attackerPost('signup', { email, password: ATTACKER_PASSWORD });
    expect(soon).toMatchObject({ status: 429, body: { error_code: 'over_email_send_rate_limit' } });
    await letMinutePass(email);
    const later = await attackerPost('signup', { email, password: ATTACKER_PASSWORD });
    expect(later.status).toBe(200);
    expect(later.body.access_token).toBeUndefined();
    expect(later.body.user_metadata).toEqual({});
    // The invited account is not changed: the attacker's password was never saved.
    expect(await attackerSignsIn(email)).toMatchObject({ status: 400, body: { error_code: 'invalid_credentials' } });

    // The sign-up mailed the owner a new link (the invitation's stops working); it signs the owner in.
    const [newest, invitation] = await readInbox(server.url, email);
    expect(invitation?.subject).toBe(INVITE_SUBJECT);
    expect(newest?.subject).toBe('Confirm your e-mail address for Yes, You Can!');
    expect((await openInvitation(invitation!)).error).toMatchObject({ code: 'otp_expired' });
    const landed = await followLink(newest!.link);
    expect(landed.type).toBe('signup');

    await expectAttackerRefused(email);
    await ownerChoosesPassword(landed.client);
    await expectAttackerRefused(email);
    await expectOwnerHoldsFiles(email);
  });

  it('the attacker never holds a session before the proof either, so none outlives it', async () => {
    const email = uniqueEmail('buyer-d');
    await attackerPost('signup', { email, password: ATTACKER_PASSWORD });
    const { rows } = await server.db.query<{ n: number }>(
      `select count(*)::int as n from auth.sessions where user_id = (select id from auth.users where lower(email) = $1)`,
      [email],
    );
    expect(rows).toEqual([{ n: 0 }]);
    // Even a session made for the account behind GoTrue's back (service role) ends at the proof.
    const admin = serviceClient(server.url);
    const { data } = await admin.auth.admin.listUsers();
    const id = data.users.find((u) => u.email === email)!.id;
    await server.db.query(`insert into auth.sessions (id, user_id, created_at) values (gen_random_uuid(), $1, now())`, [
      id,
    ]);
    await letMinutePass(email);
    await attackerPost('resend', { type: 'signup', email });
    const [mail] = await readInbox(server.url, email);
    await followLink(mail!.link);
    const left = await server.db.query<{ n: number }>(
      `select count(*)::int as n from auth.sessions where user_id = $1`,
      [id],
    );
    expect(left.rows).toEqual([{ n: 1 }]);
  });
});
