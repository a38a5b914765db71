// More bad input the stand-in must answer with a clear 4xx in the service's own error shape
// (never a 5xx, never a crash): header-unsafe storage values, NUL characters, deeply nested
// JSON, empty inserts, non-object RPC bodies, NUL in REST paths and admin pagination.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../db.mjs';
import { attachmentDisposition, headerValueOrNull, MAX_JSON_DEPTH, parseJson } from '../http.mjs';
import { ANON_KEY, DEMO_PASSWORD, SERVICE_ROLE_KEY } from '../keys.mjs';
import { isBadInputPgError, statusForPgCode } from '../pg-errors.mjs';
import { startStandIn, uniqueEmail, type StandIn } from './helpers';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** A Buffer's bytes as a fetch body. */
const bytes = (b: Buffer): ArrayBuffer => new Uint8Array(b).buffer;
const JSON_HEADERS = { apikey: ANON_KEY, 'Content-Type': 'application/json' };
const ADMIN_HEADERS = { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` };

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
});
afterAll(async () => {
  await server?.close();
});

/** The server still answers (no crash, no wedged database). */
async function alive() {
  const res = await fetch(`${server.url}/auth/v1/health`);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ name: 'GoTrue' });
}

type Session = { access_token: string; refresh_token: string; user: { id: string; email: string } };

async function signIn(email: string, password = DEMO_PASSWORD): Promise<Session> {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Session;
}

/** A new confirmed user (admin API), signed in: with confirmations on, a sign-up has no session yet. */
async function signUp(): Promise<Session> {
  const email = uniqueEmail('bad-input');
  const res = await fetch(`${server.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { ...ADMIN_HEADERS, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'password123', email_confirm: true }),
  });
  expect(res.status).toBe(200);
  return signIn(email, 'password123');
}

/** A multipart/form-data body made by hand, so part headers can carry what FormData would not. */
function multipart(parts: { headers: string; data: Buffer | string }[], boundary = 'XyZzY') {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`), Buffer.from(p.headers, 'utf8'), Buffer.from('\r\n\r\n'));
    chunks.push(typeof p.data === 'string' ? Buffer.from(p.data, 'utf8') : p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: bytes(Buffer.concat(chunks)), contentType: `multipart/form-data; boundary=${boundary}` };
}

const filePart = (type = 'image/png') => ({
  headers: `Content-Disposition: form-data; name=""; filename="avatar.png"\r\nContent-Type: ${type}`,
  data: PNG,
});

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('storage: values that cannot be HTTP header values', () => {
  let session: Session;
  let avatar: string;
  let upload: (body: ArrayBuffer, contentType: string, extra?: Record<string, string>) => Promise<Response>;
  beforeAll(async () => {
    session = await signIn('accelerated@example.com');
    avatar = `${session.user.id}/avatar.png`;
    upload = (body, contentType, extra = {}) =>
      fetch(`${server.url}/storage/v1/object/avatars/${avatar}`, {
        method: 'POST',
        headers: {
          apikey: ANON_KEY,
          Authorization: `Bearer ${session.access_token}`,
          'Content-Type': contentType,
          'x-upsert': 'true',
          ...extra,
        },
        body,
      });
    const first = multipart([filePart()]);
    expect((await upload(first.body, first.contentType)).status).toBe(200);
  });

  it('a download filename with non-ASCII or control characters gets a safe Content-Disposition (200)', async () => {
    const sign = await fetch(`${server.url}/storage/v1/object/sign/avatars/${avatar}`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${session.access_token}` },
      body: JSON.stringify({ expiresIn: 60 }),
    });
    expect(sign.status).toBe(200);
    const { signedURL } = (await sign.json()) as { signedURL: string };
    const cases: [string, string, string][] = [
      ['r%C3%A9sum%C3%A9.pdf', 'r_sum_.pdf', 'r%C3%A9sum%C3%A9.pdf'],
      ['%E2%82%AC.pdf', '_.pdf', '%E2%82%AC.pdf'],
      ['a%01b%7F.pdf', 'a_b_.pdf', 'a%01b%7F.pdf'],
      ['say%20%22hi%22%5C.pdf', 'say _hi__.pdf', 'say%20%22hi%22%5C.pdf'],
      ["it's%20(1)*.pdf", "it's (1)*.pdf", 'it%27s%20%281%29%2A.pdf'],
    ];
    const auth = { apikey: ANON_KEY, Authorization: `Bearer ${session.access_token}` };
    for (const [query, ascii, encoded] of cases) {
      const expected = `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
      const urls: [string, Record<string, string>][] = [
        [`${server.url}/storage/v1${signedURL}&download=${query}`, {}],
        [`${server.url}/storage/v1/object/public/avatars/${avatar}?download=${query}`, {}],
        [`${server.url}/storage/v1/object/authenticated/avatars/${avatar}?download=${query}`, auth],
        [`${server.url}/storage/v1/object/avatars/${avatar}?download=${query}`, auth],
      ];
      for (const [url, headers] of urls) {
        const res = await fetch(url, { headers });
        expect(res.status, url).toBe(200);
        expect(res.headers.get('content-disposition'), url).toBe(expected);
        expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
      }
    }
    await alive();
  });

  it('refuses a content type or cacheControl that is not a valid header value at upload (400)', async () => {
    // A file part's Content-Type is read by busboy, as on hosted: one it cannot parse is text/plain
    // (which avatars refuses), and a control character in a part header is a malformed body.
    const unparsed = multipart([filePart('image/png; a=€')]);
    const textPlain = await upload(unparsed.body, unparsed.contentType);
    // Hosted Storage's error handler sends every storage error as HTTP 400, the code in the body.
    expect(textPlain.status).toBe(400);
    expect(await textPlain.json()).toMatchObject({
      statusCode: '415',
      message: 'mime type text/plain is not supported',
    });
    const control = multipart([filePart('image/png; a=\x01')]);
    const malformed = await upload(control.body, control.contentType);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      statusCode: '400',
      error: 'InvalidRequest',
      message: 'Malformed part header',
      code: 'InvalidRequest',
    });
    // The contentType and cacheControl fields are taken as sent: the stand-in refuses what
    // could not be sent back as a header.
    const bad = [
      multipart([
        { headers: 'Content-Disposition: form-data; name="contentType"', data: 'image/png; a=€' },
        filePart(),
      ]),
      multipart([{ headers: 'Content-Disposition: form-data; name="contentType"', data: 'image/png\x01' }, filePart()]),
      multipart([{ headers: 'Content-Disposition: form-data; name="cacheControl"', data: '3600\x01' }, filePart()]),
      multipart([{ headers: 'Content-Disposition: form-data; name="cacheControl"', data: '€' }, filePart()]),
    ];
    for (const { body, contentType } of bad) {
      const res = await upload(body, contentType);
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json).toMatchObject({ statusCode: '400', error: 'InvalidRequest' });
      expect(json.message).toMatch(/not allowed in an HTTP header/);
    }
    // A raw upload whose Cache-Control header carries obs-text (Node lets bytes above 0x7f through).
    const raw = await upload(bytes(PNG), 'image/png', { 'Cache-Control': 'max-age=60, \u00e9' });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ statusCode: '400', error: 'InvalidRequest' });
    // The object kept its earlier, valid headers and is still served.
    const res = await fetch(`${server.url}/storage/v1/object/public/avatars/${avatar}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    // Uploaded as multipart without a cacheControl field: hosted's default.
    expect(res.headers.get('cache-control')).toBe('no-cache');
    await alive();
  });

  it('an object stored before the check with such values is still served, with default headers', async () => {
    // Written straight into the database of a data folder, as an older stand-in could have left it.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'standin-bad-meta-'));
    try {
      let other = await startStandIn({ dataDir: dir, seedSampleFiles: false });
      let id = '';
      let userId = '';
      try {
        const owner = await fetch(`${other.url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ email: 'complete@example.com', password: DEMO_PASSWORD }),
        });
        const { access_token, user } = (await owner.json()) as Session;
        userId = user.id;
        const { body, contentType } = multipart([filePart()]);
        const up = await fetch(`${other.url}/storage/v1/object/avatars/${user.id}/avatar.png`, {
          method: 'POST',
          headers: { apikey: ANON_KEY, Authorization: `Bearer ${access_token}`, 'Content-Type': contentType },
          body,
        });
        expect(up.status).toBe(200);
        id = ((await up.json()) as { Id: string }).Id;
      } finally {
        await other.close();
      }
      const db = await createDatabase({ dataDir: path.join(dir, 'db') });
      try {
        await db.query(`update storage.objects set metadata = metadata || $1::jsonb where id = $2`, [
          JSON.stringify({ mimetype: 'image/png; a=€', cacheControl: 'max-age=1\u0001', eTag: '"\r\n"' }),
          id,
        ]);
      } finally {
        await db.close();
      }
      other = await startStandIn({ dataDir: dir, seedSampleFiles: false });
      try {
        const res = await fetch(`${other.url}/storage/v1/object/public/avatars/${userId}/avatar.png?download=€.png`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/octet-stream');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.headers.get('etag')).toBe(`"${id}"`);
        expect(res.headers.get('content-disposition')).toBe(
          `attachment; filename="_.png"; filename*=UTF-8''%E2%82%AC.png`,
        );
        expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
        expect((await fetch(`${other.url}/auth/v1/health`)).status).toBe(200);
      } finally {
        await other.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the header helpers never throw and refuse what Node would', () => {
    expect(headerValueOrNull('image/png')).toBe('image/png');
    expect(headerValueOrNull('max-age=3600, public')).toBe('max-age=3600, public');
    for (const bad of ['image/png; a=€', 'a\x01', 'a\r\nSet-Cookie: x=1', 'é', 5, null, undefined, {}]) {
      expect(headerValueOrNull(bad), JSON.stringify(bad)).toBeNull();
    }
    expect(attachmentDisposition('résumé\r\n".pdf')).toBe(
      `attachment; filename="r_sum____.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%0D%0A%22.pdf`,
    );
    // A lone surrogate (not valid UTF-16) does not throw as encodeURIComponent would.
    expect(attachmentDisposition('a\ud800b')).toBe(`attachment; filename="a_b"; filename*=UTF-8''a%EF%BF%BDb`);
  });
});

describe('rest: empty inserts, non-object RPC bodies, NUL in the path', () => {
  it('POST {} / [{}] / [{},{}] builds a valid statement; the grants and policies decide (4xx, not 503)', async () => {
    const session = await signIn('ebook@example.com');
    for (const body of ['{}', '[{}]', '[{},{}]']) {
      const anon = await fetch(`${server.url}/rest/v1/profiles`, { method: 'POST', headers: JSON_HEADERS, body });
      expect(anon.status, body).toBe(401);
      expect(await anon.json(), body).toMatchObject({ code: '42501', details: null, hint: null });
      const user = await fetch(`${server.url}/rest/v1/profiles`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, Authorization: `Bearer ${session.access_token}`, Prefer: 'return=representation' },
        body,
      });
      // Users hold no insert privilege on profiles (the database creates the rows).
      expect(user.status, body).toBeGreaterThanOrEqual(400);
      expect(user.status, body).toBeLessThan(500);
      expect(Object.keys(await user.json()).sort(), body).toEqual(['code', 'details', 'hint', 'message']);
    }
    await alive();
  });

  it('POST rpc with a null or scalar body calls the function without arguments, as PostgREST does', async () => {
    for (const body of ['null', '5', '"x"', 'true']) {
      const res = await fetch(`${server.url}/rest/v1/rpc/tier_rank`, { method: 'POST', headers: JSON_HEADERS, body });
      expect(res.status, body).toBe(404);
      expect(await res.json(), body).toMatchObject({ code: 'PGRST202', hint: null });
      const noArgs = await fetch(`${server.url}/rest/v1/rpc/is_staff`, { method: 'POST', headers: JSON_HEADERS, body });
      expect(noArgs.status, body).toBe(200);
      expect(await noArgs.json(), body).toBe(false);
    }
    await alive();
  });

  it('a NUL in a table or function name is not found (404), not a 500', async () => {
    for (const path of ['profiles%00', '%00', 'pro%00files']) {
      const res = await fetch(`${server.url}/rest/v1/${path}`, { headers: { apikey: ANON_KEY } });
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ code: 'PGRST205', details: null, hint: null });
      const post = await fetch(`${server.url}/rest/v1/${path}`, { method: 'POST', headers: JSON_HEADERS, body: '{}' });
      expect(post.status, path).toBe(404);
    }
    const rpc = await fetch(`${server.url}/rest/v1/rpc/is_staff%00`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: '{}',
    });
    expect(rpc.status).toBe(404);
    expect(await rpc.json()).toMatchObject({ code: 'PGRST202' });
    const get = await fetch(`${server.url}/rest/v1/rpc/is_staff%00`, { headers: { apikey: ANON_KEY } });
    expect(get.status).toBe(404);
    await alive();
  });
});

describe('auth: NUL characters are refused with GoTrue’s validation_failed', () => {
  const validation = { code: 400, error_code: 'validation_failed' };

  async function post(path: string, body: unknown, token?: string, method = 'POST') {
    return fetch(`${server.url}/auth/v1/${path}`, {
      method,
      headers: { ...JSON_HEADERS, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  }

  it('in sign-in, refresh, sign-up, user update, recover and verify bodies', async () => {
    const session = await signUp();
    const cases: [string, unknown, string?, string?][] = [
      ['token?grant_type=password', { email: 'ebook@example.com', password: 'pass\u0000word' }],
      ['token?grant_type=password', { email: 'eb\u0000ook@example.com', password: DEMO_PASSWORD }],
      ['token?grant_type=refresh_token', { refresh_token: 'a\u0000b' }],
      ['signup', { email: uniqueEmail('nul'), password: 'abcdef\u0000gh' }],
      ['signup', { email: uniqueEmail('nul'), password: 'abcdefgh', data: { x: 'a\u0000b' } }],
      ['signup', { email: uniqueEmail('nul'), password: 'abcdefgh', data: { 'a\u0000': 1 } }],
      ['user', { password: 'abc\u0000defgh' }, session.access_token, 'PUT'],
      ['user', { data: { a: ['\u0000'] } }, session.access_token, 'PUT'],
      ['recover', { email: 'a\u0000@example.com' }],
      ['verify', { type: 'recovery', token_hash: 'a\u0000' }],
      ['verify', { type: 'recovery', email: 'a\u0000@example.com', token: '123456' }],
    ];
    for (const [path, body, token, method] of cases) {
      const res = await post(path, body, token, method);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const json = await res.json();
      expect(json, path).toMatchObject(validation);
      expect(json.msg, path).toMatch(/NUL/);
    }
    // The user is unchanged and can still sign in.
    const again = await signIn(session.user.email, 'password123');
    expect(again.user.id).toBe(session.user.id);
    await alive();
  });

  it('in a long array (hundreds of thousands of items) without overflowing the stack', async () => {
    const list = [...new Array<number>(300_000).fill(0), 'a\u0000b'];
    const res = await post('signup', { email: uniqueEmail('nul'), password: 'abcdefgh', data: { list } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject(validation);
    await alive();
  });

  it('in query parameters: GET /verify?token=, GET /inbox?email=', async () => {
    const verify = await fetch(`${server.url}/auth/v1/verify?token=%00&type=recovery`, { redirect: 'manual' });
    expect(verify.status).toBe(400);
    expect(await verify.json()).toMatchObject(validation);
    const inbox = await fetch(`${server.url}/inbox?email=%00`, { headers: { apikey: ANON_KEY } });
    expect(inbox.status).toBe(400);
    expect(await inbox.json()).toMatchObject({ message: expect.stringMatching(/NUL/) });
    // An ordinary unknown token still redirects with GoTrue's error fragment.
    const unknown = await fetch(`${server.url}/auth/v1/verify?token=nope&type=recovery`, { redirect: 'manual' });
    expect(unknown.status).toBe(303);
    expect(unknown.headers.get('location')).toContain('error_code=otp_expired');
    await alive();
  });
});

describe('Postgres errors caused by the input', () => {
  it('are 4xx, not 500s (22xxx, 54xxx, codes PostgREST’s table does not list)', async () => {
    for (const code of ['22P05', '22021', '22003', '54001', '54000']) {
      expect(isBadInputPgError({ code }), code).toBe(true);
    }
    for (const code of ['23505', '42501', '08P01', 'XX000']) expect(isBadInputPgError({ code }), code).toBe(false);
    // The whole 54 class (program limit exceeded) is a 413; a code PostgREST's table does not
    // list is the client's 400 (0A000: calling a trigger function through /rpc).
    expect(statusForPgCode('54023', false)).toBe(413);
    expect(statusForPgCode('0A000', false)).toBe(400);
    expect(statusForPgCode('XX000', false)).toBe(500);
    const trigger = await fetch(`${server.url}/rest/v1/rpc/profiles_before_update`, {
      method: 'POST',
      headers: { ...ADMIN_HEADERS, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(trigger.status).toBe(400);
    expect(await trigger.json()).toMatchObject({ code: '0A000', details: null, hint: null });
    await alive();
  });
});

describe('deeply nested JSON is refused where it is parsed (400 in each service’s shape)', () => {
  it('parseJson counts depth without recursion', () => {
    const invalid = () => new Error('invalid');
    expect(parseJson(Buffer.from(nested(MAX_JSON_DEPTH)), invalid)).toBeTruthy();
    expect(parseJson(Buffer.from(`{"s":"${'['.repeat(5000)}"}`), invalid)).toEqual({ s: '['.repeat(5000) });
    expect(parseJson(Buffer.from(`["\\"[[[[", ${nested(MAX_JSON_DEPTH - 1)}]`), invalid)).toBeTruthy();
    expect(() => parseJson(Buffer.from(nested(MAX_JSON_DEPTH + 1)), invalid)).toThrow('invalid');
    expect(() => parseJson(Buffer.from(nested(200_000)), invalid)).toThrow('invalid');
    const deep = () => new Error('too deep');
    expect(() => parseJson(Buffer.from(nestedObject(MAX_JSON_DEPTH + 1)), invalid, undefined, deep)).toThrow(
      'too deep',
    );
  });

  it('auth sign-up and user update', async () => {
    const session = await signUp();
    for (const depth of [MAX_JSON_DEPTH + 1, 5000, 200_000]) {
      const signup = await fetch(`${server.url}/auth/v1/signup`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: `{"email":"${uniqueEmail('deep')}","password":"abcdefgh","data":{"x":${nested(depth)}}}`,
      });
      expect(signup.status, String(depth)).toBe(400);
      expect(await signup.json()).toMatchObject({ code: 400, error_code: 'bad_json' });
      const update = await fetch(`${server.url}/auth/v1/user`, {
        method: 'PUT',
        headers: { ...JSON_HEADERS, Authorization: `Bearer ${session.access_token}` },
        body: `{"data":{"x":${depth > 100_000 ? nested(depth) : nestedObject(depth)}}}`,
      });
      expect(update.status, String(depth)).toBe(400);
      expect(await update.json()).toMatchObject({ code: 400, error_code: 'bad_json' });
    }
    await alive();
  });

  it('REST insert and RPC', async () => {
    const session = await signIn('ebook@example.com');
    const headers = { ...JSON_HEADERS, Authorization: `Bearer ${session.access_token}` };
    for (const depth of [MAX_JSON_DEPTH + 1, 5000]) {
      const insert = await fetch(`${server.url}/rest/v1/profiles`, {
        method: 'POST',
        headers,
        body: `{"display_name":${nested(depth)}}`,
      });
      expect(insert.status, String(depth)).toBe(400);
      expect(await insert.json()).toMatchObject({ code: 'PGRST102', details: null, hint: null });
      const rpc = await fetch(`${server.url}/rest/v1/rpc/tier_rank`, {
        method: 'POST',
        headers,
        body: `{"tier":${nestedObject(depth)}}`,
      });
      expect(rpc.status, String(depth)).toBe(400);
      expect(await rpc.json()).toMatchObject({ code: 'PGRST102' });
    }
    await alive();
  });

  it('storage multipart metadata, x-metadata and JSON bodies', async () => {
    const session = await signIn('foundation@example.com');
    const url = `${server.url}/storage/v1/object/avatars/${session.user.id}/avatar.png`;
    const auth = { apikey: ANON_KEY, Authorization: `Bearer ${session.access_token}` };
    const { body, contentType } = multipart([
      { headers: 'Content-Disposition: form-data; name="metadata"', data: nested(5000) },
      filePart(),
    ]);
    const mp = await fetch(url, { method: 'POST', headers: { ...auth, 'Content-Type': contentType }, body });
    expect(mp.status).toBe(400);
    expect(await mp.json()).toMatchObject({
      statusCode: '400',
      error: 'InvalidRequest',
      message: expect.stringMatching(/nested/),
    });
    const xm = await fetch(url, {
      method: 'POST',
      headers: {
        ...auth,
        'Content-Type': 'image/png',
        'x-metadata': Buffer.from(nestedObject(MAX_JSON_DEPTH + 1)).toString('base64'),
      },
      body: bytes(PNG),
    });
    expect(xm.status).toBe(400);
    expect(await xm.json()).toMatchObject({
      statusCode: '400',
      error: 'InvalidRequest',
      message: expect.stringMatching(/nested/),
    });
    const list = await fetch(`${server.url}/storage/v1/object/list/avatars`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: `{"prefix":"","x":${nested(5000)}}`,
    });
    expect(list.status).toBe(400);
    expect(await list.json()).toMatchObject({ statusCode: '400', error: 'InvalidRequest' });
    // Shallow metadata is still accepted.
    const ok = multipart([
      { headers: 'Content-Disposition: form-data; name="metadata"', data: '{"a":{"b":[1]}}' },
      filePart(),
    ]);
    const fine = await fetch(url, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': ok.contentType, 'x-upsert': 'true' },
      body: ok.body,
    });
    expect(fine.status).toBe(200);
    await alive();
  });
});

describe('auth admin API', () => {
  it('page and per_page must be non-negative integers in range (400 like GoTrue)', async () => {
    for (const query of ['page=1e308', 'page=-1', 'page=1.5', 'page=abc', 'per_page=-5', 'page=99999999999999999999']) {
      const res = await fetch(`${server.url}/auth/v1/admin/users?${query}`, { headers: ADMIN_HEADERS });
      expect(res.status, query).toBe(400);
      const json = await res.json();
      expect(json, query).toMatchObject({ code: 400, error_code: 'validation_failed' });
      expect(json.msg, query).toMatch(/^Bad Pagination Parameters/);
    }
    const page2 = await fetch(`${server.url}/auth/v1/admin/users?page=2&per_page=2`, { headers: ADMIN_HEADERS });
    expect(page2.status).toBe(200);
    expect(((await page2.json()) as { users: unknown[] }).users).toHaveLength(2);
    const far = await fetch(`${server.url}/auth/v1/admin/users?page=9007199254740000&per_page=1000`, {
      headers: ADMIN_HEADERS,
    });
    expect(far.status).toBe(400);
    await alive();
  });

  it('PUT /admin/users/:id with another user’s e-mail is 422 email_exists, not a 500', async () => {
    const a = await signUp();
    const b = await signUp();
    const taken = await fetch(`${server.url}/auth/v1/admin/users/${a.user.id}`, {
      method: 'PUT',
      headers: { ...ADMIN_HEADERS, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ` ${b.user.email.toUpperCase()}` }),
    });
    expect(taken.status).toBe(422);
    expect(await taken.json()).toMatchObject({
      code: 422,
      error_code: 'email_exists',
      msg: 'A user with this email address has already been registered',
    });
    const same = await fetch(`${server.url}/auth/v1/admin/users/${a.user.id}`, {
      method: 'PUT',
      headers: { ...ADMIN_HEADERS, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: a.user.email.toUpperCase() }),
    });
    expect(same.status).toBe(200);
    expect(await same.json()).toMatchObject({ id: a.user.id, email: a.user.email });
    await alive();
  });
});
