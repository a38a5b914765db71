import { describe, expect, it } from 'vitest';
import { createCountHandler, readCountConfig, type CountRpc, type LogEntry } from './handler.ts';

const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

type Call = { fn: string; args: Record<string, unknown> };

/** The handler with an rpc that records each call, a clock and timers the test moves by hand. */
function setup() {
  const calls: Call[] = [];
  const logs: LogEntry[] = [];
  const kept: Promise<unknown>[] = [];
  let due: (() => void) | null = null;
  const clock = { now: Date.UTC(2026, 10, 28, 12, 0, 0) };
  const rpc: CountRpc = async (fn, args) => {
    calls.push({ fn, args });
    return { data: { counted: (args.p_counts as unknown[]).length, dropped: 0 }, error: null };
  };
  const handle = createCountHandler({
    rpc,
    siteUrl: 'https://site.test',
    log: (e) => logs.push(e),
    now: () => clock.now,
    timers: { set: (run) => (due = run), clear: () => (due = null) },
    waitUntil: (promise) => kept.push(promise),
  });
  /** The buffer's timer fires; resolves once the batches handed to waitUntil are written. */
  const elapse = async () => {
    due?.();
    await Promise.all(kept);
  };
  return { calls, logs, kept, clock, handle, elapse };
}

function post(body: BodyInit | null, headers: Record<string, string> = {}, method = 'POST') {
  return new Request('http://function/count', {
    method,
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': DESKTOP,
      origin: 'https://site.test',
      'cf-connecting-ip': '203.0.113.5',
      'x-forwarded-for': '198.51.100.66, 203.0.113.5',
      ...headers,
    },
    body,
  });
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a count', () => {
  it('is answered 202 at once, then written with count_visits: the cleaned count, address, user agent, device and site', async () => {
    const { calls, handle, elapse, kept } = setup();
    const body = JSON.stringify({
      k: 'view',
      p: '/',
      r: 'https://www.youtube.com/watch?v=1',
      s: 'Podcast',
      c: 'Launch',
    });
    const res = await handle(post(body, { 'user-agent': IPHONE }));
    expect(await answer(res)).toEqual({ status: 202, body: { counted: true } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('server-timing')).toMatch(/^total;dur=\d+(\.\d)?$/);
    expect(calls).toEqual([]);
    expect(kept).toHaveLength(1);
    await elapse();
    expect(calls).toEqual([
      {
        fn: 'count_visits',
        args: {
          p_counts: [
            {
              kind: 'view',
              page: '/',
              source: 'podcast',
              medium: null,
              campaign: 'launch',
              referrer: 'youtube.com',
              bundle: null,
              device: 'phone',
              address: '203.0.113.5',
              user_agent: IPHONE,
              site: 'site.test',
            },
          ],
        },
      },
    ]);
  });

  it('sends a checkout’s bundle, drops a referrer from the site itself, and takes SITE_URL without an Origin', async () => {
    const { calls, handle } = setup();
    const body = JSON.stringify({ k: 'checkout', p: '/bundles', b: 'complete', r: 'https://www.site.test/' });
    expect((await handle(post(body, { origin: '', 'cf-connecting-ip': '198.51.100.9' }))).status).toBe(202);
    await handle.flush();
    expect((calls[0]?.args.p_counts as unknown[])[0]).toMatchObject({
      kind: 'checkout',
      bundle: 'complete',
      referrer: null,
      site: 'site.test',
      address: '198.51.100.9',
      device: 'desktop',
    });
  });

  it('writes the counts of many requests in one call, in the order they came', async () => {
    const { calls, handle, elapse } = setup();
    for (const p of ['/', '/bundles', '/privacy']) {
      expect((await handle(post(JSON.stringify({ k: 'view', p })))).status).toBe(202);
    }
    await elapse();
    expect(calls).toHaveLength(1);
    expect((calls[0]?.args.p_counts as { page: string }[]).map((c) => c.page)).toEqual(['/', '/bundles', '/privacy']);
  });

  it('answers 429 with Retry-After past 120 counts an address a minute, and never buffers those', async () => {
    const { calls, clock, handle, elapse } = setup();
    const statuses: number[] = [];
    for (let i = 0; i < 121; i += 1) statuses.push((await handle(post('{"k":"view","p":"/"}'))).status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(120);
    const over = await handle(post('{"k":"view","p":"/"}'));
    expect(await answer(over)).toEqual({ status: 429, body: { counted: false, reason: 'rate' } });
    expect(over.headers.get('retry-after')).toBe('60');
    expect((await handle(post('{"k":"view","p":"/"}', { 'cf-connecting-ip': '203.0.113.6' }))).status).toBe(202);
    clock.now += 60_000;
    expect((await handle(post('{"k":"view","p":"/"}'))).status).toBe(202);
    await elapse();
    expect(calls.flatMap((c) => c.args.p_counts as unknown[])).toHaveLength(122);
  });
});

describe('what is not counted', () => {
  it('crawlers, headless browsers and requests with no user agent: 202, nothing written', async () => {
    const { calls, handle } = setup();
    for (const ua of ['Googlebot/2.1', 'Mozilla/5.0 HeadlessChrome/131.0.0.0', 'curl/8.5.0', '']) {
      expect(await answer(await handle(post('{"k":"view","p":"/"}', { 'user-agent': ua })))).toEqual({
        status: 202,
        body: { counted: false },
      });
    }
    await handle.flush();
    expect(calls).toEqual([]);
  });

  it('other methods: 405 with Allow; OPTIONS: the preflight’s 204 with CORS', async () => {
    const { calls, handle } = setup();
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await handle(post(method === 'GET' ? null : '{}', {}, method));
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
    const pre = await handle(post(null, {}, 'OPTIONS'));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toContain('content-type');
    await handle.flush();
    expect(calls).toEqual([]);
  });

  it('a body over 1 KB: 413, declared or streamed', async () => {
    const { calls, handle } = setup();
    const big = JSON.stringify({ k: 'view', p: '/', r: `https://a.test/${'x'.repeat(1100)}` });
    expect((await handle(post(big))).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 3; i += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(400)));
        controller.close();
      },
    });
    const streamed = new Request('http://function/count', {
      method: 'POST',
      headers: { 'user-agent': DESKTOP },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect((await handle(streamed)).status).toBe(413);
    await handle.flush();
    expect(calls).toEqual([]);
  });

  it('bad JSON, bad UTF-8, unknown keys: 400; unknown page, kind or bundle: 422; even from a bot', async () => {
    const { calls, handle } = setup();
    expect((await handle(post('{"k":'))).status).toBe(400);
    expect((await handle(post(new Uint8Array([0x7b, 0xff, 0x7d])))).status).toBe(400);
    expect((await handle(post('{"k":"view","p":"/","u":"x"}'))).status).toBe(400);
    expect(await answer(await handle(post('{"k":"view","p":"/staff"}')))).toMatchObject({
      status: 422,
      body: { counted: false, error: 'unknown_value' },
    });
    expect((await handle(post('{"k":"view","p":"/nope"}', { 'user-agent': 'Googlebot' }))).status).toBe(422);
    await handle.flush();
    expect(calls).toEqual([]);
  });
});

describe('readCountConfig', () => {
  it('needs the URL and the service-role key; SITE_URL is optional', () => {
    expect(readCountConfig({ SUPABASE_URL: 'http://kong:8000', SUPABASE_SERVICE_ROLE_KEY: 'k' })).toEqual({
      supabaseUrl: 'http://kong:8000',
      serviceRoleKey: 'k',
      siteUrl: null,
    });
    expect(() => readCountConfig({ SUPABASE_URL: 'http://kong:8000' })).toThrow(/SUPABASE_SERVICE_ROLE_KEY/);
  });
});
