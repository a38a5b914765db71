// The stand-in follows GoTrue's source in either posture, read from
// supabase/config.toml as `supabase start` reads it. Each test names the GoTrue file
// (github.com/supabase/auth) whose behaviour it checks. `on` is the repo's posture
// (enable_confirmations = true); `off` is the same config with confirmations off.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_TOML, readAuthConfig } from '../config/auth.mjs';
import { EMAIL_MAX_FREQUENCY_SECONDS } from '../auth/mail.mjs';
import { ANON_KEY } from '../keys.mjs';
import { anonClient, readInbox, serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let on: StandIn;
let off: StandIn;
let securePassword: StandIn;
beforeAll(async () => {
  [on, off, securePassword] = await Promise.all([
    startStandIn({ seedSampleFiles: false }),
    startStandIn({ seedSampleFiles: false, authConfig: { enableConfirmations: false } }),
    startStandIn({ seedSampleFiles: false, authConfig: { securePasswordChange: true } }),
  ]);
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close(), securePassword?.close()]);
});

/** The parts of GoTrue's JSON answers these tests read. */
type AuthBody = Record<string, unknown> & {
  access_token?: string;
  msg?: string;
  user?: Record<string, unknown>;
};

const JSON_HEADERS = { apikey: ANON_KEY, 'Content-Type': 'application/json' };

/** POST /auth/v1/<path> with the anon key, as any client (or attacker) can. */
async function post(server: StandIn, path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}/auth/v1/${path}`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as AuthBody };
}

/** A minute passes for the address's `column` (GoTrue's max_frequency), with no waiting. */
async function letMinutePass(server: StandIn, email: string, column = 'confirmation_sent_at') {
  await server.db.query(
    `update auth.users set ${column} = ${column} - make_interval(secs => $2) where lower(email) = $1`,
    [email, EMAIL_MAX_FREQUENCY_SECONDS],
  );
}

async function userRow(server: StandIn, email: string) {
  const { rows } = await server.db.query<Record<string, unknown>>(`select * from auth.users where lower(email) = $1`, [
    email,
  ]);
  const row = rows[0];
  if (!row) throw new Error(`no user ${email}`);
  return row;
}

/** Follows an e-mailed link without following the redirect: where it lands and its fragment. */
async function follow(link: string) {
  const res = await fetch(link, { redirect: 'manual' });
  const location = new URL(res.headers.get('location')!);
  return { status: res.status, location, fragment: new URLSearchParams(location.hash.slice(1)) };
}

describe('the posture comes from supabase/config.toml (config/auth.mjs)', () => {
  it('reads the repo config: confirmations on, double confirmation of e-mail changes, reuse interval 10 s', () => {
    expect(readAuthConfig(readFileSync(CONFIG_TOML, 'utf8'))).toEqual({
      enableConfirmations: true,
      doubleConfirmChanges: true,
      securePasswordChange: false,
      refreshTokenRotation: true,
      refreshTokenReuseInterval: 10,
      emailSent: 500,
    });
  });

  it('reads keys only in their own table, with comments, and refuses a value of the wrong kind', () => {
    const toml = [
      '[auth]',
      'refresh_token_reuse_interval = 3 # seconds',
      '[auth.email]',
      'enable_confirmations = false',
      '[auth.sms]',
      'enable_confirmations = true',
    ].join('\n');
    expect(readAuthConfig(toml)).toMatchObject({ enableConfirmations: false, refreshTokenReuseInterval: 3 });
    expect(() => readAuthConfig('[auth.email]\nenable_confirmations = "yes"')).toThrow(/not a boolean/);
  });

  it('GET /settings says mailer_autoconfirm: false in the repo posture, true with confirmations off (settings.go)', async () => {
    const settings = async (server: StandIn) =>
      (await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: ANON_KEY } })).json();
    expect(await settings(on)).toMatchObject({ mailer_autoconfirm: false, external: { email: true } });
    expect(await settings(off)).toMatchObject({ mailer_autoconfirm: true });
  });
});

describe('sign-up of an address that has an unconfirmed account (internal/api/signup.go)', () => {
  it('confirmations on: 429 within max_frequency of the last mail, then a new link; the account is not changed', async () => {
    const email = uniqueEmail('again');
    expect((await post(on, 'signup', { email, password: 'first-password' })).status).toBe(200);
    const before = await userRow(on, email);

    const soon = await post(on, 'signup', { email, password: 'second-password' });
    expect(soon.status).toBe(429);
    expect(soon.body).toMatchObject({ error_code: 'over_email_send_rate_limit' });
    expect(soon.body.msg).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);

    await letMinutePass(on, email);
    const later = await post(on, 'signup', { email, password: 'second-password', data: { name: 'x' } });
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ id: before.id, email, email_confirmed_at: null });
    expect(later.body.access_token).toBeUndefined();
    const after = await userRow(on, email);
    // "we can't be sure of their claimed identity": neither password nor data changes.
    expect(after.encrypted_password).toBe(before.encrypted_password);
    expect(after.raw_user_meta_data).toEqual(before.raw_user_meta_data);
    const mails = await readInbox(on.url, email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Confirm your e-mail address for Yes, You Can!',
      'Confirm your e-mail address for Yes, You Can!',
    ]);
    // The newer link replaced the older one.
    expect((await follow(mails[1]!.link)).fragment.get('error_code')).toBe('otp_expired');
  });

  it("confirmations on: over a pending invitation, the answer hides the invited user's data", async () => {
    const email = uniqueEmail('invited');
    await serviceClient(on.url).auth.admin.inviteUserByEmail(email, { data: { order: 'secret' } });
    await letMinutePass(on, email);
    const res = await post(on, 'signup', { email, password: 'stranger-pw' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, user_metadata: {}, identities: [] });
    expect(res.body.access_token).toBeUndefined();
  });

  it('confirmations off: the account is confirmed and whoever signed up gets a session; the typed password is not saved', async () => {
    const email = uniqueEmail('autoconfirm');
    const admin = serviceClient(off.url);
    const made = await admin.auth.admin.createUser({ email, password: 'earlier-password' });
    expect(made.data.user?.email_confirmed_at).toBeFalsy();
    const res = await post(off, 'signup', { email, password: 'typed-password' });
    expect(res.status).toBe(200);
    expect(res.body.access_token).toBeTruthy();
    expect(res.body.user).toMatchObject({ id: made.data.user!.id });
    expect(res.body.user?.email_confirmed_at).toBeTruthy();
    const typed = await anonClient(off.url).auth.signInWithPassword({ email, password: 'typed-password' });
    expect(typed.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('confirmations off: a new address is confirmed and signed in, its password kept; a confirmed one is 422', async () => {
    const email = uniqueEmail('new-off');
    const res = await post(off, 'signup', { email, password: 'my-password' });
    expect(res.status).toBe(200);
    expect(res.body.access_token).toBeTruthy();
    expect((await signedIn(off.url, email, 'my-password')).auth).toBeTruthy();
    const dup = await post(off, 'signup', { email, password: 'my-password' });
    expect(dup).toMatchObject({
      status: 422,
      body: { error_code: 'user_already_exists', msg: 'User already registered' },
    });
  });
});

describe('POST /resend (internal/api/resend.go)', () => {
  it('type signup: a new link to an unconfirmed address (429 within max_frequency); {} and nothing for others', async () => {
    const email = uniqueEmail('resend');
    await post(on, 'signup', { email, password: 'secret123' });
    expect((await post(on, 'resend', { type: 'signup', email })).status).toBe(429);
    await letMinutePass(on, email);
    expect(await post(on, 'resend', { type: 'signup', email })).toEqual({ status: 200, body: {} });
    expect((await readInbox(on.url, email)).length).toBe(2);

    expect(await post(on, 'resend', { type: 'signup', email: 'ebook@example.com' })).toEqual({ status: 200, body: {} });
    expect(await readInbox(on.url, 'ebook@example.com')).toEqual([]);
    expect(await post(on, 'resend', { type: 'signup', email: uniqueEmail('nobody') })).toEqual({
      status: 200,
      body: {},
    });
    expect(await post(on, 'resend', { type: 'email_change', email: 'ebook@example.com' })).toEqual({
      status: 200,
      body: {},
    });
  });

  it('refuses an unknown type and a missing address with GoTrue’s messages', async () => {
    expect(await post(on, 'resend', { type: 'recovery', email: 'a@example.com' })).toMatchObject({
      status: 400,
      body: {
        error_code: 'validation_failed',
        msg: 'Missing one of these types: signup, email_change, sms, phone_change',
      },
    });
    expect(await post(on, 'resend', { type: 'signup' })).toMatchObject({
      status: 400,
      body: { msg: 'Type provided requires an email address' },
    });
  });
});

describe('verify (internal/api/verify.go)', () => {
  it('type email with the mailed code confirms a sign-up and signs in; the code works once', async () => {
    const email = uniqueEmail('otp');
    await post(on, 'signup', { email, password: 'secret123' });
    const [mail] = await readInbox(on.url, email);
    const first = await post(on, 'verify', { type: 'email', email, token: mail!.otp });
    expect(first.status).toBe(200);
    expect(first.body.user).toMatchObject({ email });
    expect(first.body.user?.email_confirmed_at).toBeTruthy();
    const again = await post(on, 'verify', { type: 'email', email, token: mail!.otp });
    expect(again).toMatchObject({ status: 403, body: { error_code: 'otp_expired' } });
  });

  it('email_change with double confirmation: both addresses must agree; the first link says so, the second moves the account (user.go, mail.go)', async () => {
    const email = uniqueEmail('mover');
    const next = uniqueEmail('moved');
    const admin = serviceClient(on.url);
    await admin.auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const client = await signedIn(on.url, email, 'secret123');
    const asked = await client.auth.updateUser({ email: next });
    expect(asked.error).toBeNull();
    expect(asked.data.user).toMatchObject({ email, new_email: next });
    // Nothing changes until the links are followed.
    expect((await userRow(on, email)).email_change).toBe(next);
    const [toCurrent] = await readInbox(on.url, email);
    const [toNew] = await readInbox(on.url, next);
    expect(toCurrent?.subject).toBe('Confirm your new e-mail address for Yes, You Can!');
    expect(toNew?.link).toContain('type=email_change');

    const first = await follow(toNew!.link);
    expect(first.status).toBe(303);
    expect(first.fragment.get('message')).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    );
    expect(first.fragment.get('access_token')).toBeNull();
    expect((await userRow(on, email)).email).toBe(email);

    const second = await follow(toCurrent!.link);
    expect(second.fragment.get('access_token')).toBeTruthy();
    const moved = await userRow(on, next);
    expect(moved).toMatchObject({ email: next, email_change: '' });
    const { rows } = await on.db.query(`select identity_data from auth.identities where user_id = $1`, [moved.id]);
    expect(rows[0]).toMatchObject({ identity_data: { email: next, email_verified: true } });
  });

  it('email_change by code (POST): the first answers GoTrue’s message with code "200"', async () => {
    const email = uniqueEmail('mover-otp');
    const next = uniqueEmail('moved-otp');
    await serviceClient(on.url).auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const client = await signedIn(on.url, email, 'secret123');
    await client.auth.updateUser({ email: next });
    const [toNew] = await readInbox(on.url, next);
    const [toCurrent] = await readInbox(on.url, email);
    expect(await post(on, 'verify', { type: 'email_change', email: next, token: toNew!.otp })).toEqual({
      status: 200,
      body: { msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email', code: '200' },
    });
    const done = await post(on, 'verify', { type: 'email_change', email, token: toCurrent!.otp });
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({ email: next });
  });

  it('email_change with confirmations off: one link moves the account, though both addresses were mailed', async () => {
    const email = uniqueEmail('mover-off');
    const next = uniqueEmail('moved-off');
    await serviceClient(off.url).auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const client = await signedIn(off.url, email, 'secret123');
    await client.auth.updateUser({ email: next });
    expect((await readInbox(off.url, email)).length).toBe(1);
    const [toNew] = await readInbox(off.url, next);
    expect((await follow(toNew!.link)).fragment.get('access_token')).toBeTruthy();
    expect((await userRow(off, next)).email).toBe(next);
  });

  it('an e-mail change to an address another user has is 422 email_exists (user.go)', async () => {
    const email = uniqueEmail('taken');
    await serviceClient(on.url).auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const client = await signedIn(on.url, email, 'secret123');
    expect((await client.auth.updateUser({ email: 'ebook@example.com' })).error).toMatchObject({
      status: 422,
      code: 'email_exists',
    });
  });
});

describe('password sign-in of an unconfirmed account (internal/api/token.go)', () => {
  it('the right password is 400 email_not_confirmed; a wrong one is invalid_credentials first', async () => {
    const email = uniqueEmail('unconfirmed');
    await post(on, 'signup', { email, password: 'secret123' });
    expect(await post(on, 'token?grant_type=password', { email, password: 'secret123' })).toMatchObject({
      status: 400,
      body: { error_code: 'email_not_confirmed', msg: 'Email not confirmed' },
    });
    expect(await post(on, 'token?grant_type=password', { email, password: 'wrong-one' })).toMatchObject({
      status: 400,
      body: { error_code: 'invalid_credentials' },
    });
  });
});

describe('password change (internal/api/user.go, internal/models/user.go UpdatePassword)', () => {
  it("ends the user's other sessions: their refresh tokens and access tokens stop working", async () => {
    const email = uniqueEmail('changer');
    await serviceClient(on.url).auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const mine = await signedIn(on.url, email, 'secret123');
    const other = await signedIn(on.url, email, 'secret123');
    const otherSession = (await other.auth.getSession()).data.session!;
    expect((await mine.auth.updateUser({ password: 'secret456' })).error).toBeNull();
    expect((await mine.auth.getUser()).error).toBeNull();
    expect(
      (await anonClient(on.url).auth.refreshSession({ refresh_token: otherSession.refresh_token })).error,
    ).toMatchObject({ code: 'refresh_token_not_found' });
    // 403 session_not_found, which supabase-js reports as a missing session.
    expect((await anonClient(on.url).auth.getUser(otherSession.access_token)).error?.name).toBe(
      'AuthSessionMissingError',
    );
  });

  it('secure_password_change: a session older than 24 hours needs reauthentication; a recent one does not', async () => {
    const email = uniqueEmail('secure');
    await serviceClient(securePassword.url).auth.admin.createUser({
      email,
      password: 'secret123',
      email_confirm: true,
    });
    const client = await signedIn(securePassword.url, email, 'secret123');
    expect((await client.auth.updateUser({ password: 'secret456' })).error).toBeNull();
    await securePassword.db.query(
      `update auth.sessions set created_at = created_at - interval '25 hours'
        where user_id = (select id from auth.users where lower(email) = $1)`,
      [email],
    );
    expect((await client.auth.updateUser({ password: 'secret789' })).error).toMatchObject({
      status: 400,
      code: 'reauthentication_needed',
      message: 'Password update requires reauthentication',
    });
  });
});
