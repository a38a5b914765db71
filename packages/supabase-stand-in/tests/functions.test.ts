// Edge Functions on the stand-in: real Deno behind /functions/v1, as the Supabase CLI serves them.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, signJwt } from '../keys.mjs';
import { LOCAL_FUNCTION_SECRETS, readFunctionsConfig } from '../functions/service.mjs';
import {
  shopifyOrder,
  shopifyRequest,
  stripeRequest,
  stripeSessionEvent,
} from '../../../supabase/functions/purchase-webhook/test-support.ts';
import { startStandIn, type StandIn } from './helpers';

const fixtures = fileURLToPath(new URL('./fixtures/functions', import.meta.url));

describe('functions config', () => {
  it('reads verify_jwt per [functions.<name>] table, true unless set false', () => {
    const config = readFunctionsConfig(
      [
        '[functions.open]',
        'verify_jwt = false # signed by the provider',
        '[functions."quoted-name"]',
        'verify_jwt = true',
        '[functions.bare]',
        '[auth]',
        'verify_jwt = false',
      ].join('\n'),
    );
    expect(Object.fromEntries(config)).toEqual({
      open: { verifyJwt: false },
      'quoted-name': { verifyJwt: true },
      bare: { verifyJwt: true },
    });
  });

  it('has the purchase webhook open (no JWT) in the real supabase/config.toml', async () => {
    const { readFileSync } = await import('node:fs');
    const toml = readFileSync(new URL('../../../supabase/config.toml', import.meta.url), 'utf8');
    expect(readFunctionsConfig(toml).get('purchase-webhook')).toEqual({ verifyJwt: false });
  });
});

describe('/functions/v1 with test functions', () => {
  let server: StandIn;
  beforeAll(async () => {
    server = await startStandIn({
      seedSampleFiles: false,
      functionsDir: fixtures,
      functionsConfigToml: '[functions.echo]\nverify_jwt = true\n',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 404 "Function not found" for a name with no function', async () => {
    for (const name of ['nope', '..%2Fecho', '']) {
      const res = await fetch(`${server.url}/functions/v1/${name}`, { method: 'POST' });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('Function not found');
    }
  });

  it('with verify_jwt on, refuses a missing, non-bearer or forged token as the edge runtime does (401)', async () => {
    const url = `${server.url}/functions/v1/echo`;
    const forged = await signJwt({ role: 'service_role' }, 'not-the-project-secret-but-32-chars-long!');
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'Error: Missing authorization header'],
      [{ Authorization: `Token ${ANON_KEY}` }, "Error: Auth header is not 'Bearer {token}'"],
      [{ Authorization: `Bearer ${forged}` }, 'Invalid JWT'],
    ];
    for (const [headers, msg] of cases) {
      const res = await fetch(url, { method: 'POST', headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ msg });
    }
  });

  it('with verify_jwt on, a browser preflight without a token is answered 204 by the gateway, not refused', async () => {
    const res = await fetch(`${server.url}/functions/v1/echo`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:4173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
  });

  it('runs the function in Deno: path, query and raw body arrive intact; env is the Supabase keys and local secrets', async () => {
    const bytes = [0, 1, 2, 250, 255, 10, 13];
    const res = await fetch(`${server.url}/functions/v1/echo/sub/path?x=1`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${ANON_KEY}`, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      method: string;
      path: string;
      search: string;
      bodyBytes: number[];
      env: string[];
      supabaseUrl: string;
    };
    expect(body).toMatchObject({
      method: 'PUT',
      path: '/echo/sub/path',
      search: '?x=1',
      bodyBytes: bytes,
      supabaseUrl: server.url,
    });
    expect(body.env).toEqual(
      expect.arrayContaining([
        'SUPABASE_URL',
        'SUPABASE_ANON_KEY',
        'SUPABASE_SERVICE_ROLE_KEY',
        'SITE_URL',
        ...Object.keys(LOCAL_FUNCTION_SECRETS),
      ]),
    );
    expect(body.env).not.toContain('PATH');
    expect(body.env.filter((k) => k.startsWith('npm_'))).toEqual([]);
  });

  it('stops every Deno process when the stand-in closes', async () => {
    const other = await startStandIn({ seedSampleFiles: false, functionsDir: fixtures, functionsConfigToml: '' });
    const res = await fetch(`${other.url}/functions/v1/echo`, { headers: { Authorization: `Bearer ${ANON_KEY}` } });
    expect(res.status).toBe(200);
    const [pid] = other.functionPids();
    expect(pid).toBeTypeOf('number');
    await other.close();
    expect(() => process.kill(pid as number, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('a Deno process whose stand-in dies without stopping it (killed outright) ends too', async () => {
    // A stand-in in its own Node process, killed with SIGKILL: no close(), no exit handlers.
    const code = `const { startServer } = await import(${JSON.stringify(new URL('../server.mjs', import.meta.url).href)});
      const s = await startServer({ port: 0, dataDir: null, quiet: true, seedSampleFiles: false,
        functionsDir: ${JSON.stringify(fixtures)}, functionsConfigToml: '' });
      console.log(s.url);`;
    const node = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve) =>
      node.stdout.once('data', (chunk) => resolve(String(chunk).trim())),
    );
    const res = await fetch(`${url}/functions/v1/echo`, { headers: { Authorization: `Bearer ${ANON_KEY}` } });
    const { pid } = (await res.json()) as { pid: number };
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    node.kill('SIGKILL');
    await expect.poll(alive, { timeout: 30_000 }).toBe(false);
  });

  it('answers 503 BOOT_ERROR when the function fails to start (verify_jwt defaults to on)', async () => {
    const res = await fetch(`${server.url}/functions/v1/broken`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' });
  });
});

/** A request made for the function (as the simulator and the tests sign it) sent to the stand-in instead. */
async function toStandIn(url: string, made: Request): Promise<Response> {
  const path = new URL(made.url).pathname.split('/').pop();
  return fetch(`${url}/functions/v1/purchase-webhook/${path}`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
}

describe('purchase-webhook on the stand-in', () => {
  let server: StandIn;
  beforeAll(async () => {
    server = await startStandIn({ seedSampleFiles: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('needs no JWT (verify_jwt = false) but a signature made with the local secret', async () => {
    const wrong = await toStandIn(server.url, await shopifyRequest('orders/paid', shopifyOrder()));
    expect(wrong.status).toBe(401);
    const unsigned = await toStandIn(server.url, await shopifyRequest('orders/paid', shopifyOrder(), { hmac: null }));
    expect(unsigned.status).toBe(401);
    const secret = LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET;
    const ignored = await toStandIn(server.url, await shopifyRequest('orders/cancelled', shopifyOrder(), { secret }));
    expect(await ignored.json()).toEqual({
      ok: true,
      outcome: 'ignored',
      reason: 'topic orders/cancelled is not handled',
    });
  });

  it('checks Stripe signatures with the local secret and the 5-minute tolerance', async () => {
    const secret = LOCAL_FUNCTION_SECRETS.STRIPE_WEBHOOK_SECRET;
    const now = Math.floor(Date.now() / 1000);
    const event = { ...stripeSessionEvent(), type: 'customer.created' };
    const stale = await toStandIn(server.url, await stripeRequest(event, { secret, timestamp: now - 301 }));
    expect(stale.status).toBe(401);
    const fresh = await toStandIn(server.url, await stripeRequest(event, { secret, timestamp: now }));
    expect(fresh.status).toBe(200);
  });
});
