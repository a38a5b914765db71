import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthWeakPasswordError } from '@supabase/supabase-js';
import { EMAIL_MAX_FREQUENCY_SECONDS } from '../auth/mail.mjs';
import { safeRedirect, SITE_URL } from '../auth/redirects.mjs';
import { ANON_KEY, SERVICE_ROLE_KEY, signJwt, verifyJwt } from '../keys.mjs';
import { anonClient, serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
});
afterAll(async () => {
  await server?.close();
});

describe('keys', () => {
  it('are the well-known demo keys of supabase start', () => {
    expect(ANON_KEY).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
    );
    expect(SERVICE_ROLE_KEY).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU',
    );
  });

  it('refuses tampered, unsigned and expired tokens', async () => {
    const [h, , s] = ANON_KEY.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ role: 'service_role' })).toString('base64url')}.${s}`;
    await expect(verifyJwt(forged)).rejects.toThrow(/signature/);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.`;
    await expect(verifyJwt(none)).rejects.toThrow();
    await expect(verifyJwt(await signJwt({ role: 'anon', exp: 1 }))).rejects.toThrow(/expired/);
  });
});

describe('token time claims', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const sub = '00000000-0000-4000-8000-000000000001';

  it('refuses an exp or nbf that is present but not a number, and a token not valid yet', async () => {
    for (const exp of ['9999999999', null, true, {}, [1]]) {
      await expect(verifyJwt(await signJwt({ role: 'anon', exp })), JSON.stringify(exp)).rejects.toThrow(
        /exp must be a number/,
      );
    }
    await expect(verifyJwt(await signJwt({ role: 'anon', nbf: '0' }))).rejects.toThrow(/nbf must be a number/);
    await expect(verifyJwt(await signJwt({ role: 'anon', nbf: now() + 60 }))).rejects.toThrow(/not valid yet/);
    expect((await verifyJwt(await signJwt({ role: 'anon', nbf: now() - 1, exp: now() + 60 }))).role).toBe('anon');
    expect((await verifyJwt(await signJwt({ role: 'anon' }))).role).toBe('anon');
  });

  it('the services refuse such tokens as keys and as bearer tokens', async () => {
    const bad = [
      await signJwt({ role: 'service_role', exp: '9999999999' }),
      await signJwt({ role: 'authenticated', sub, exp: `${now() + 60}` }),
      await signJwt({ role: 'authenticated', sub, nbf: now() + 60, exp: now() + 120 }),
    ];
    for (const token of bad) {
      const asKey = await fetch(`${server.url}/rest/v1/profiles`, { headers: { apikey: token } });
      expect(asKey.status).toBe(401);
      const rest = await fetch(`${server.url}/rest/v1/profiles`, {
        headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}` },
      });
      expect(rest.status).toBe(401);
      expect(await rest.json()).toMatchObject({ code: 'PGRST301' });
      const auth = await fetch(`${server.url}/auth/v1/user`, {
        headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}` },
      });
      expect(auth.status).toBe(403);
      const storage = await fetch(`${server.url}/storage/v1/object/list/resources`, {
        method: 'POST',
        headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}` },
        body: '{}',
      });
      expect(storage.status).toBe(400);
      // storage src/http/plugins/jwt.ts: a token that does not verify is AccessDenied.
      expect(await storage.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized', code: 'AccessDenied' });
    }
  });
});

describe('sign-up (config.toml: confirmations on; internal/api/signup.go)', () => {
  it('answers the new unconfirmed user without a session; the mailed link confirms and signs in with GoTrue claims', async () => {
    const email = uniqueEmail('signup');
    const client = anonClient(server.url);
    const { data, error } = await client.auth.signUp({
      email,
      password: 'secret123',
      options: { data: { plan: 'x' }, emailRedirectTo: 'http://127.0.0.1:5173/auth/set-password' },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeNull();
    expect(data.user?.confirmation_sent_at).toBeTruthy();
    expect(data.user?.user_metadata).toMatchObject({ plan: 'x' });
    const signIn = await anonClient(server.url).auth.signInWithPassword({ email, password: 'secret123' });
    expect(signIn.error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });

    const [mail] = (await readInbox(email)).messages;
    expect(mail?.subject).toBe('Confirm your e-mail address for Yes, You Can!');
    expect(mail?.link).toContain('type=signup');
    const res = await fetch(mail!.link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://127.0.0.1:5173/auth/set-password');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('signup');
    const claims = await verifyJwt(fragment.get('access_token')!);
    expect(claims).toMatchObject({ sub: data.user!.id, role: 'authenticated', aud: 'authenticated', email });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(typeof claims.session_id).toBe('string');
    expect(claims.app_metadata).toMatchObject({ provider: 'email' });
    expect(claims.user_metadata).toMatchObject({ plan: 'x', email_verified: true });
  });

  it('answers a confirmed e-mail like a new sign-up and sends nothing; a weak password and a bad e-mail as GoTrue does', async () => {
    const client = anonClient(server.url);
    const dup = await client.auth.signUp({ email: 'ebook@example.com', password: 'secret123' });
    expect(dup.error).toBeNull();
    expect(dup.data.session).toBeNull();
    expect(dup.data.user?.id).not.toBe('00000000-0000-4000-8000-000000000001');
    expect(dup.data.user?.identities).toEqual([]);
    expect((await readInbox('ebook@example.com')).messages).toEqual([]);

    const weak = await client.auth.signUp({ email: uniqueEmail(), password: '123' });
    expect(weak.error).toBeInstanceOf(AuthWeakPasswordError);
    expect(weak.error).toMatchObject({
      status: 422,
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
    });

    const bad = await client.auth.signUp({ email: 'not-an-email', password: 'secret123' });
    expect(bad.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to validate email address: invalid format',
    });
  });
});

describe('sign-in and sessions', () => {
  it('signs a seed user in with the seed bcrypt hash, and refuses a wrong password', async () => {
    const client = anonClient(server.url);
    const ok = await client.auth.signInWithPassword({ email: 'foundation@example.com', password: 'password123' });
    expect(ok.error).toBeNull();
    expect(ok.data.user?.id).toBe('00000000-0000-4000-8000-000000000002');
    const wrong = await anonClient(server.url).auth.signInWithPassword({
      email: 'foundation@example.com',
      password: 'nope-nope',
    });
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });

  it('rotates refresh tokens; a used one past refresh_token_reuse_interval is refused and ends the session (internal/tokens/service.go)', async () => {
    const client = await signedIn(server.url, 'ebook@example.com');
    const first = (await client.auth.getSession()).data.session!;
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session!.refresh_token;
    expect(second).not.toBe(first.refresh_token);
    // The parent of the current token (a client that lost the answer) gets the current one back.
    const other = anonClient(server.url);
    const lost = await other.auth.refreshSession({ refresh_token: first.refresh_token });
    expect(lost.error).toBeNull();
    expect(lost.data.session!.refresh_token).toBe(second);
    const third = (await anonClient(server.url).auth.refreshSession({ refresh_token: second })).data.session!
      .refresh_token;
    // No longer the parent of the current token, but used under 10 seconds ago: swapped again.
    const within = await anonClient(server.url).auth.refreshSession({ refresh_token: first.refresh_token });
    expect(within.error).toBeNull();
    expect([first.refresh_token, second, third]).not.toContain(within.data.session!.refresh_token);
    // Past the interval (its use moved back 11 seconds): refused, and every token of the session revoked.
    await server.db.query(
      `update auth.refresh_tokens set updated_at = updated_at - interval '11 seconds' where token = $1`,
      [second],
    );
    const reuse = await anonClient(server.url).auth.refreshSession({ refresh_token: second });
    expect(reuse.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    const live = await server.db.query(
      `select count(*)::int as n from auth.refresh_tokens where session_id = (select session_id from auth.refresh_tokens where token = $1) and not revoked`,
      [first.refresh_token],
    );
    expect(live.rows).toEqual([{ n: 0 }]);
  });

  it('gets and updates the user, then logs out (session gone server-side)', async () => {
    const email = uniqueEmail('upd');
    await serviceClient(server.url).auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const client = await signedIn(server.url, email, 'secret123');
    const got = await client.auth.getUser();
    expect(got.data.user?.email).toBe(email);
    const upd = await client.auth.updateUser({ password: 'secret456', data: { display: 'Me' } });
    expect(upd.error).toBeNull();
    expect(upd.data.user?.user_metadata).toMatchObject({ display: 'Me' });
    const again = await anonClient(server.url).auth.signInWithPassword({ email, password: 'secret456' });
    expect(again.error).toBeNull();
    const token = (await client.auth.getSession()).data.session!.access_token;
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull();
    const after = await anonClient(server.url).auth.getUser(token);
    expect(after.error?.name).toBe('AuthSessionMissingError');
  });
});

type Mail = { to: string; subject: string; link: string; otp: string };

/** A minute passes for `email`'s recovery rate limit (GoTrue's max_frequency), with no waiting. */
async function letRecoveryLimitPass(email: string) {
  await server.db.query(
    `update auth.users set recovery_sent_at = recovery_sent_at - make_interval(secs => $2) where lower(email) = $1`,
    [email, EMAIL_MAX_FREQUENCY_SECONDS],
  );
}
async function readInbox(email: string): Promise<{ messages: Mail[] }> {
  const res = await fetch(`${server.url}/inbox?email=${encodeURIComponent(email)}`, { headers: { apikey: ANON_KEY } });
  expect(res.status).toBe(200);
  return res.json();
}

describe('password recovery', () => {
  it('mails a link to the local inbox; the link and the code both open a session', async () => {
    const email = uniqueEmail('recover');
    const admin = serviceClient(server.url);
    await admin.auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const client = anonClient(server.url);
    expect(
      (await client.auth.resetPasswordForEmail(email, { redirectTo: 'http://127.0.0.1:5173/reset' })).error,
    ).toBeNull();
    const inbox = await readInbox(email);
    expect(inbox.messages).toHaveLength(1);
    const mail = inbox.messages[0]!;
    expect(mail.subject).toBe('Reset your Yes, You Can! password');
    const res = await fetch(mail.link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://127.0.0.1:5173/reset');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');
    const user = await anonClient(server.url).auth.getUser(fragment.get('access_token')!);
    expect(user.data.user?.email).toBe(email);
    // The link is single-use.
    const reused = await fetch(mail.link, { redirect: 'manual' });
    expect(reused.headers.get('location')).toContain('error_code=otp_expired');

    await letRecoveryLimitPass(email);
    await client.auth.resetPasswordForEmail(email);
    const second = (await readInbox(email)).messages[0]!;
    const verified = await client.auth.verifyOtp({ email, token: second.otp, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    expect((await client.auth.updateUser({ password: 'brand-new-1' })).error).toBeNull();
    expect((await anonClient(server.url).auth.signInWithPassword({ email, password: 'brand-new-1' })).error).toBeNull();
  });

  it('answers an unknown address the same way (no account enumeration)', async () => {
    const client = anonClient(server.url);
    const known = uniqueEmail('known');
    await serviceClient(server.url).auth.admin.createUser({ email: known, password: 'secret123', email_confirm: true });
    const answers = [];
    for (const email of [known, uniqueEmail('nobody')]) {
      const res = await fetch(`${server.url}/auth/v1/recover`, {
        method: 'POST',
        headers: { apikey: ANON_KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      answers.push({ status: res.status, body: await res.json() });
    }
    expect(answers).toEqual([
      { status: 200, body: {} },
      { status: 200, body: {} },
    ]);
    expect((await client.auth.resetPasswordForEmail('nobody@example.com')).error).toBeNull();
    expect((await readInbox('nobody@example.com')).messages).toEqual([]);
  });

  it("limits recovery e-mails to one a minute per address, with GoTrue's 429 and wording", async () => {
    const email = uniqueEmail('limit');
    await serviceClient(server.url).auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const client = anonClient(server.url);
    expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();
    const again = await client.auth.resetPasswordForEmail(email);
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    const seconds = Number(
      /^For security purposes, you can only request this after (\d+) seconds\.$/.exec(again.error!.message)?.[1],
    );
    expect(seconds).toBeGreaterThan(EMAIL_MAX_FREQUENCY_SECONDS - 10);
    expect(seconds).toBeLessThan(EMAIL_MAX_FREQUENCY_SECONDS);
    // Only the first request was mailed, and its link still works.
    const inbox = await readInbox(email);
    expect(inbox.messages).toHaveLength(1);
    // Another address is not held up by this one.
    const other = uniqueEmail('limit-other');
    await serviceClient(server.url).auth.admin.createUser({ email: other, password: 'secret123', email_confirm: true });
    expect((await client.auth.resetPasswordForEmail(other)).error).toBeNull();

    await letRecoveryLimitPass(email);
    expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();
    const after = await readInbox(email);
    expect(after.messages).toHaveLength(2);
    // The newer link replaced the older one.
    const old = await fetch(inbox.messages[0]!.link, { redirect: 'manual' });
    expect(old.headers.get('location')).toContain('error_code=otp_expired');
    const fresh = await fetch(after.messages[0]!.link, { redirect: 'manual' });
    expect(new URLSearchParams(new URL(fresh.headers.get('location')!).hash.slice(1)).get('type')).toBe('recovery');
  });
});

describe('admin API', () => {
  it('creates, lists and deletes users with the service_role key only', async () => {
    const admin = serviceClient(server.url);
    const email = uniqueEmail('admin');
    const created = await admin.auth.admin.createUser({
      email,
      password: 'secret123',
      email_confirm: true,
      user_metadata: { a: 1 },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect((await anonClient(server.url).auth.signInWithPassword({ email, password: 'secret123' })).error).toBeNull();
    const dup = await admin.auth.admin.createUser({ email, password: 'secret123' });
    expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' });
    const list = await admin.auth.admin.listUsers({ page: 1, perPage: 1000 });
    expect(list.data.users.some((u) => u.id === id)).toBe(true);

    const user = await signedIn(server.url, 'staff@example.com');
    const refused = await (user.auth as unknown as { admin: typeof admin.auth.admin }).admin.listUsers();
    expect(refused.error).toMatchObject({ status: 403, code: 'not_admin' });

    expect((await admin.auth.admin.deleteUser(id)).error).toBeNull();
    expect((await anonClient(server.url).auth.signInWithPassword({ email, password: 'secret123' })).error?.status).toBe(
      400,
    );
    expect((await admin.auth.admin.deleteUser(id)).error).toMatchObject({ status: 404, code: 'user_not_found' });
  });
});

describe('recovery redirects', () => {
  it('keep the site URL, allowed URLs and paths under them; anything else falls back to the site URL', () => {
    const site = 'http://127.0.0.1:5173';
    for (const ok of [
      'http://127.0.0.1:5173',
      'http://127.0.0.1:5173/reset?x=1',
      'http://localhost:4173/account/reset',
      'http://localhost:5173/',
    ]) {
      expect(new URL(safeRedirect(ok, site)).href, ok).toBe(new URL(ok).href);
    }
    expect(safeRedirect('http://localhost:4173/reset#frag', site)).toBe('http://localhost:4173/reset');
    for (const bad of [
      'https://evil.example/steal',
      'http://127.0.0.1:5174/',
      'https://127.0.0.1:5173/',
      'http://127.0.0.1:5173.evil.example/',
      'http://127.0.0.1:5173@evil.example/',
      'http://user:pw@127.0.0.1:5173/',
      '//evil.example/',
      'javascript:alert(1)',
      '/relative',
      '',
      null,
    ]) {
      expect(safeRedirect(bad, site), String(bad)).toBe(site);
    }
    // A site URL with a path allows only that path and below it.
    expect(safeRedirect('http://example.test/app/x', 'http://example.test/app', [])).toBe('http://example.test/app/x');
    expect(safeRedirect('http://example.test/apple', 'http://example.test/app', [])).toBe('http://example.test/app');
  });

  it('a recovery e-mail for a foreign redirect_to, or a link edited to one, lands on the site URL', async () => {
    const email = uniqueEmail('redirect');
    await serviceClient(server.url).auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
    const client = anonClient(server.url);
    expect(
      (await client.auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example/steal' })).error,
    ).toBeNull();
    const mail = (await readInbox(email)).messages[0]!;
    expect(new URL(mail.link).searchParams.get('redirect_to')).toBe(SITE_URL);
    const edited = new URL(mail.link);
    edited.searchParams.set('redirect_to', 'https://evil.example/steal');
    const res = await fetch(edited, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(SITE_URL);
    expect(new URLSearchParams(location.hash.slice(1)).get('type')).toBe('recovery');
    // A spent or bogus link is answered on the site too, never on the foreign URL.
    const spent = await fetch(edited, { redirect: 'manual' });
    expect(new URL(spent.headers.get('location')!).origin).toBe(SITE_URL);
    expect(spent.headers.get('location')).toContain('error_code=otp_expired');

    await letRecoveryLimitPass(email);
    await client.auth.resetPasswordForEmail(email, { redirectTo: 'http://localhost:4173/reset' });
    const allowed = (await readInbox(email)).messages[0]!;
    const ok = await fetch(allowed.link, { redirect: 'manual' });
    const okLocation = new URL(ok.headers.get('location')!);
    expect(okLocation.origin + okLocation.pathname).toBe('http://localhost:4173/reset');
  });
});

describe('mail inbox', () => {
  it('needs a demo key in the apikey header and sends no CORS headers', async () => {
    const none = await fetch(`${server.url}/inbox`);
    expect(none.status).toBe(401);
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
    const user = await signJwt({
      role: 'authenticated',
      sub: '00000000-0000-4000-8000-000000000001',
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    const wrong: Record<string, string>[] = [
      { apikey: user },
      { Authorization: `Bearer ${ANON_KEY}` },
      { apikey: 'nope' },
    ];
    for (const headers of wrong) {
      const res = await fetch(`${server.url}/inbox`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
    }
    const query = await fetch(`${server.url}/inbox?apikey=${ANON_KEY}`);
    expect(query.status).toBe(401);
    for (const key of [ANON_KEY, SERVICE_ROLE_KEY]) {
      const res = await fetch(`${server.url}/inbox`, { headers: { apikey: key, Origin: 'https://evil.example' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(Array.isArray((await res.json()).messages)).toBe(true);
    }
    const preflight = await fetch(`${server.url}/inbox`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'apikey',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // Its refusals too: a 400 is no more readable cross-origin than a 200.
    const bad = await fetch(`${server.url}/inbox?email=%00`, {
      headers: { apikey: ANON_KEY, Origin: 'https://evil.example' },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
  });
});
