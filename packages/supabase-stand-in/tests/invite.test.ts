// POST /auth/v1/invite and its verify link, against GoTrue's Invite and signupVerify
// (supabase/auth internal/api/invite.go, verify.go), through supabase-js's admin client.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_SUBJECT } from '../auth/mail.mjs';
import { SITE_URL } from '../auth/redirects.mjs';
import { ANON_KEY } from '../keys.mjs';
import { anonClient, serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
});
afterAll(async () => {
  await server?.close();
});

type Mail = { to: string; subject: string; body: string; link: string; otp: string };
async function inbox(email: string): Promise<Mail[]> {
  const res = await fetch(`${server.url}/inbox?email=${encodeURIComponent(email)}`, { headers: { apikey: ANON_KEY } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: Mail[] }).messages;
}

/** Follows an e-mailed link as the browser would (one hop); returns where it lands. */
async function open(link: string) {
  const res = await fetch(link, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location')!);
  return { at: location.origin + location.pathname, fragment: new URLSearchParams(location.hash.slice(1)) };
}

async function authRow(email: string) {
  const r = await server.db.query<{ email_confirmed_at: Date | null; invited_at: Date | null; has_password: boolean }>(
    `select email_confirmed_at, invited_at, coalesce(encrypted_password, '') <> '' as has_password
       from auth.users where email = $1`,
    [email],
  );
  return r.rows[0];
}

const setPasswordUrl = `${SITE_URL}/auth/set-password`;

describe('invite', () => {
  it('creates an unconfirmed, invited user and mails a type=invite link to the set-password page', async () => {
    const email = uniqueEmail('invitee');
    const admin = serviceClient(server.url);
    const { data, error } = await admin.auth.admin.inviteUserByEmail(email.toUpperCase(), {
      redirectTo: setPasswordUrl,
      data: { source: 'purchase' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, email_confirmed_at: null, user_metadata: { source: 'purchase' } });
    expect(data.user?.invited_at).toEqual(expect.any(String));
    expect(await authRow(email)).toMatchObject({ email_confirmed_at: null, has_password: false });

    // Not confirmed yet: nobody can sign in with this address.
    const early = await anonClient(server.url).auth.signInWithPassword({ email, password: 'anything' });
    expect(early.error?.status).toBe(400);

    const mails = await inbox(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(INVITE_SUBJECT);
    // The mail carries the site's confirm page for the same token, never the verify URL itself.
    expect(mail.body).not.toContain(mail.link);
    expect(mail.body).toContain(`/auth/confirm?token_hash=${new URL(mail.link).searchParams.get('token')}&type=invite`);
    const link = new URL(mail.link);
    expect(link.origin + link.pathname).toBe(`${server.url}/auth/v1/verify`);
    expect(link.searchParams.get('type')).toBe('invite');
    expect(link.searchParams.get('redirect_to')).toBe(setPasswordUrl);

    const landed = await open(mail.link);
    expect(landed.at).toBe(setPasswordUrl);
    expect(landed.fragment.get('type')).toBe('invite');
    const client = anonClient(server.url);
    const session = await client.auth.setSession({
      access_token: landed.fragment.get('access_token')!,
      refresh_token: landed.fragment.get('refresh_token')!,
    });
    expect(session.error).toBeNull();
    expect(session.data.user?.email).toBe(email);
    expect(session.data.user?.email_confirmed_at).toEqual(expect.any(String));
    // GoTrue gives an invited user a random password on acceptance; the page then sets theirs.
    expect(await authRow(email)).toMatchObject({ has_password: true });
    expect(session.data.user?.identities?.[0]?.identity_data?.email_verified).toBe(true);

    expect((await client.auth.updateUser({ password: 'my-new-password' })).error).toBeNull();
    expect(
      (await anonClient(server.url).auth.signInWithPassword({ email, password: 'my-new-password' })).error,
    ).toBeNull();

    // The link is single-use.
    const again = await open(mail.link);
    expect(again.at).toBe(setPasswordUrl);
    expect(again.fragment.get('error_code')).toBe('otp_expired');
    expect(again.fragment.get('error_description')).toBe('Email link is invalid or has expired');
    expect(again.fragment.has('access_token')).toBe(false);
  });

  it('refuses a confirmed address with 422 email_exists and mails nothing', async () => {
    const email = uniqueEmail('member');
    const admin = serviceClient(server.url);
    await admin.auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const { error } = await admin.auth.admin.inviteUserByEmail(email, { redirectTo: setPasswordUrl });
    expect(error).toMatchObject({ status: 422, code: 'email_exists' });
    expect(error?.message).toBe('A user with this email address has already been registered');
    expect(await inbox(email)).toEqual([]);
  });

  it("invites an unconfirmed user again: the new link works, the old one does not, the squatter's password stops working", async () => {
    const email = uniqueEmail('squatter');
    const admin = serviceClient(server.url);
    const made = await admin.auth.admin.createUser({ email, password: 'squatter-pw' });
    expect(made.data.user?.email_confirmed_at).toBeFalsy();
    const first = await admin.auth.admin.inviteUserByEmail(email, { redirectTo: setPasswordUrl });
    expect(first.error).toBeNull();
    expect(first.data.user?.id).toBe(made.data.user?.id);
    const second = await admin.auth.admin.inviteUserByEmail(email, { redirectTo: setPasswordUrl });
    expect(second.error).toBeNull();
    const [newest, oldest] = await inbox(email);

    expect((await open(oldest!.link)).fragment.get('error_code')).toBe('otp_expired');
    expect(await authRow(email)).toMatchObject({ email_confirmed_at: null });
    const landed = await open(newest!.link);
    expect(landed.fragment.get('type')).toBe('invite');
    expect((await authRow(email))?.email_confirmed_at).not.toBeNull();
    // GoTrue's signupVerify keeps a password the account already had; the database makes it
    // unusable as the address is confirmed (baseline migration, section 12), so only the person who
    // followed the link (signed in by it, then asked to choose a password) gets in.
    expect(
      (await anonClient(server.url).auth.signInWithPassword({ email, password: 'squatter-pw' })).error,
    ).toMatchObject({ status: 400, code: 'invalid_credentials' });
    expect(landed.fragment.get('access_token')).toBeTruthy();
  });

  it('is for the service role only', async () => {
    const email = uniqueEmail('nope');
    const anon = await fetch(`${server.url}/auth/v1/invite`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${ANON_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(anon.status).toBe(403);
    expect(await anon.json()).toMatchObject({ error_code: 'not_admin' });

    const user = await signedIn(server.url, 'staff@example.com');
    const asStaff = await (
      user.auth as unknown as { admin: ReturnType<typeof serviceClient>['auth']['admin'] }
    ).admin.inviteUserByEmail(email);
    expect(asStaff.error).toMatchObject({ status: 403, code: 'not_admin' });
    expect(await inbox(email)).toEqual([]);
    expect(await authRow(email)).toBeUndefined();
  });

  it('validates the address as GoTrue does and keeps only allowed redirects', async () => {
    const admin = serviceClient(server.url);
    expect((await admin.auth.admin.inviteUserByEmail('')).error).toMatchObject({
      status: 400,
      message: 'An email address is required',
    });
    expect((await admin.auth.admin.inviteUserByEmail('not-an-address')).error).toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
    const email = uniqueEmail('foreign');
    await admin.auth.admin.inviteUserByEmail(email, { redirectTo: 'https://evil.example/steal' });
    const mail = (await inbox(email))[0]!;
    expect(new URL(mail.link).searchParams.get('redirect_to')).toBe(SITE_URL);
  });

  it('an invite link cannot be used as a recovery link, nor a recovery link as an invite', async () => {
    const email = uniqueEmail('crossed');
    const admin = serviceClient(server.url);
    await admin.auth.admin.inviteUserByEmail(email, { redirectTo: setPasswordUrl });
    const invite = (await inbox(email))[0]!;
    const asRecovery = new URL(invite.link);
    asRecovery.searchParams.set('type', 'recovery');
    expect((await open(asRecovery.href)).fragment.get('error_code')).toBe('otp_expired');
    // Still good as what it is.
    expect((await open(invite.link)).fragment.get('type')).toBe('invite');

    await anonClient(server.url).auth.resetPasswordForEmail(email, { redirectTo: setPasswordUrl });
    const recovery = (await inbox(email))[0]!;
    expect(recovery.subject).toBe('Reset your Yes, You Can! password');
    const asInvite = new URL(recovery.link);
    asInvite.searchParams.set('type', 'invite');
    expect((await open(asInvite.href)).fragment.get('error_code')).toBe('otp_expired');
  });

  it('a recovery link also confirms an invited user who never accepted (the expired-invite fallback)', async () => {
    const email = uniqueEmail('late');
    const admin = serviceClient(server.url);
    await admin.auth.admin.inviteUserByEmail(email, { redirectTo: setPasswordUrl });
    // The invitation's hour has passed.
    await server.db.query(
      `update _local.one_time_tokens set created_at = now() - interval '2 hours'
        where user_id = (select id from auth.users where email = $1)`,
      [email],
    );
    const invite = (await inbox(email))[0]!;
    const expired = await open(invite.link);
    expect(expired.fragment.get('error_code')).toBe('otp_expired');
    expect(await authRow(email)).toMatchObject({ email_confirmed_at: null });

    expect(
      (await anonClient(server.url).auth.resetPasswordForEmail(email, { redirectTo: setPasswordUrl })).error,
    ).toBeNull();
    const landed = await open((await inbox(email))[0]!.link);
    expect(landed.fragment.get('type')).toBe('recovery');
    expect((await authRow(email))?.email_confirmed_at).not.toBeNull();
  });

  it('verifies an invitation by e-mail and code too (verifyOtp type invite)', async () => {
    const email = uniqueEmail('code');
    await serviceClient(server.url).auth.admin.inviteUserByEmail(email);
    const mail = (await inbox(email))[0]!;
    const client = anonClient(server.url);
    expect((await client.auth.verifyOtp({ email, token: '000000', type: 'recovery' })).error?.status).toBe(403);
    const verified = await client.auth.verifyOtp({ email, token: mail.otp, type: 'invite' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
  });

  it('mirrors the invitation subject in supabase/config.toml, whose template has the link', () => {
    const toml = readFileSync(new URL('../../../supabase/config.toml', import.meta.url), 'utf8');
    const section = /^\[auth\.email\.template\.invite\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
    expect(/^subject\s*=\s*"([^"]*)"/m.exec(section)?.[1]).toBe(INVITE_SUBJECT);
    const contentPath = /^content_path\s*=\s*"\.\/supabase\/([^"]*)"/m.exec(section)?.[1];
    expect(contentPath).toBeDefined();
    expect(readFileSync(new URL(`../../../supabase/${contentPath}`, import.meta.url), 'utf8')).toContain(
      '/auth/confirm?token_hash={{ .TokenHash }}&amp;type=invite',
    );
  });
});
