import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, signJwt, verifyJwt } from '../keys.mjs';
import { MAX_LOGIC_DEPTH } from '../rest/query.mjs';
import { anonClient, signedIn, startStandIn, type StandIn } from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';

// This file's server issues 1-second access tokens (the e2e session-expiry setting), which
// nothing else here depends on; sharing it saves starting another database.
let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false, jwtExpiry: 1 });
});
afterAll(async () => {
  await server?.close();
});

async function alive() {
  const res = await fetch(`${server.url}/rest/v1/rpc/is_staff`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(200);
}

describe('bad input gets a clear 4xx and the server stays up', () => {
  it('missing and invalid API keys (Kong’s answers)', async () => {
    const none = await fetch(`${server.url}/rest/v1/profiles`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: 'No API key found in request' });
    const bad = await fetch(`${server.url}/auth/v1/user`, { headers: { apikey: 'a.b.c' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: 'Invalid authentication credentials' });
    const wrongSecret = await fetch(`${server.url}/rest/v1/profiles`, {
      headers: { apikey: await signJwt({ role: 'anon' }, 'another-secret-another-secret-123456') },
    });
    expect(wrongSecret.status).toBe(401);
    await alive();
  });

  it('malformed and expired bearer tokens', async () => {
    const malformed = await fetch(`${server.url}/rest/v1/profiles`, {
      headers: { apikey: ANON_KEY, Authorization: 'Bearer not.a.jwt' },
    });
    expect(malformed.status).toBe(401);
    expect(await malformed.json()).toMatchObject({ code: 'PGRST301' });
    const expired = await signJwt({
      role: 'authenticated',
      sub: '00000000-0000-4000-8000-000000000001',
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    const rest = await fetch(`${server.url}/rest/v1/profiles`, {
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${expired}` },
    });
    expect(rest.status).toBe(401);
    expect(await rest.json()).toMatchObject({ code: 'PGRST301', message: 'JWT expired' });
    const auth = await fetch(`${server.url}/auth/v1/user`, {
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${expired}` },
    });
    expect(auth.status).toBe(403);
    expect(await auth.json()).toMatchObject({ error_code: 'bad_jwt' });
    const storage = await fetch(`${server.url}/storage/v1/object/list/resources`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${expired}` },
      body: '{}',
    });
    expect(storage.status).toBe(400);
    expect(await storage.json()).toEqual({
      statusCode: '403',
      error: 'Unauthorized',
      message: '"exp" claim timestamp check failed',
      code: 'AccessDenied',
    });
    const role = await fetch(`${server.url}/rest/v1/profiles`, {
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${await signJwt({ role: 'postgres' })}` },
    });
    expect(role.status).toBe(401);
    await alive();
  });

  it('unknown routes, invalid JSON and oversized bodies', async () => {
    const unknown = await fetch(`${server.url}/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'no Route matched with those values' });
    const json = { apikey: ANON_KEY, 'Content-Type': 'application/json' };
    const badRest = await fetch(`${server.url}/rest/v1/profiles`, {
      method: 'POST',
      headers: json,
      body: '{"display_name":',
    });
    expect(badRest.status).toBe(400);
    expect(await badRest.json()).toMatchObject({ code: 'PGRST102' });
    const badAuth = await fetch(`${server.url}/auth/v1/signup`, { method: 'POST', headers: json, body: 'nope' });
    expect(badAuth.status).toBe(400);
    expect(await badAuth.json()).toMatchObject({ error_code: 'bad_json' });
    const huge = await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'x@example.com', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    const hugeRest = await fetch(`${server.url}/rest/v1/profiles`, {
      method: 'POST',
      headers: json,
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(hugeRest.status).toBe(413);
    const badFilter = await fetch(`${server.url}/rest/v1/profiles?id=zz.1`, { headers: { apikey: ANON_KEY } });
    expect(badFilter.status).toBe(400);
    const embed = await fetch(`${server.url}/rest/v1/profiles?select=*,user_tiers(*)`, {
      headers: { apikey: ANON_KEY },
    });
    expect(embed.status).toBe(400);
    const schema = await fetch(`${server.url}/rest/v1/users`, {
      headers: { apikey: ANON_KEY, 'Accept-Profile': 'auth' },
    });
    expect(schema.status).toBe(406);
    await alive();
  });

  it('a malformed percent-escape in a REST path is a PostgREST 400, not a 500', async () => {
    for (const path of ['%zz', 'profiles%', 'rpc/is_staff%E0%A4%A']) {
      const res = await fetch(`${server.url}/rest/v1/${path}`, { headers: { apikey: ANON_KEY } });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toMatchObject({ code: 'PGRST100', details: null, hint: null });
    }
    const admin = await fetch(`${server.url}/auth/v1/admin/users/%zz`, {
      headers: { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    });
    expect(admin.status).toBe(404);
    expect(await admin.json()).toMatchObject({ error_code: 'user_not_found' });
    await alive();
  });

  it('caps how deeply or=/and= groups nest (400 beyond the cap, not a 500)', async () => {
    const nested = (levels: number) => `${'or('.repeat(levels - 1)}id.eq.${EBOOK_ID}${')'.repeat(levels - 1)}`;
    const headers = { apikey: ANON_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` };
    const ok = await fetch(`${server.url}/rest/v1/profiles?select=id&or=(${nested(MAX_LOGIC_DEPTH)})`, { headers });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual([{ id: EBOOK_ID }]);
    for (const levels of [MAX_LOGIC_DEPTH + 1, 2000]) {
      const res = await fetch(`${server.url}/rest/v1/profiles?select=id&or=(${nested(levels)})`, { headers });
      expect(res.status, String(levels)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'PGRST100' });
    }
    await alive();
  });

  it('answers CORS preflights for the browser', async () => {
    const res = await fetch(`${server.url}/rest/v1/profiles`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'apikey, authorization, content-type, prefer, x-client-info',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('prefer');
    // Kept an hour by the browser, as the hosted platform's gateway says (http.mjs).
    expect(res.headers.get('access-control-max-age')).toBe('3600');
    const get = await fetch(`${server.url}/rest/v1/rpc/is_staff`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(get.headers.get('access-control-expose-headers')).toContain('Content-Range');
  });
});

describe('session expiry', () => {
  it('issues tokens with the configured lifetime; an expired one is refused by REST and Auth', async () => {
    const client = await signedIn(server.url, 'complete@example.com');
    const token = (await client.auth.getSession()).data.session!.access_token;
    // Verified as of its issue time: a 1-second token may already have expired on a busy machine.
    const claims = await verifyJwt(token, undefined, decodeJwt(token).iat);
    expect(claims.exp - claims.iat).toBe(1);
    const expired = await signJwt({ ...claims, iat: claims.iat - 10, exp: claims.iat - 5 });
    const res = await fetch(`${server.url}/rest/v1/profiles?select=*`, {
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${expired}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'PGRST301', message: 'JWT expired' });
    const user = await anonClient(server.url).auth.getUser(expired);
    expect(user.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    // The refresh token still renews the session, as on the hosted stack.
    const renewed = await client.auth.refreshSession();
    expect(renewed.error).toBeNull();
  });
});
