// The count function end to end: the stand-in, the function in real Deno, PostgREST and the
// database's count_visits. Counts posted as a page posts them (text/plain, no key, no cookie) are
// answered 202 at once and written a moment later in a batch, with a hashed visitor and their
// attribution, so the tests poll the database for them; every refusal and every crawler writes
// nothing (shown by a good count sent after it: once that one is written, the refused one left
// no row); an address past 120 counts a minute gets 429.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFunctionsConfig } from '../functions/service.mjs';
import { fetchFrom, nextLoopbackAddress } from '../loopback-fetch.mjs';
import { SERVICE_ROLE_KEY } from '../keys.mjs';
import { anonClient, startStandIn, type StandIn } from './helpers';

const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SITE = 'https://site.test';

let server: StandIn;

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
});
afterAll(async () => {
  await server?.close();
});

/**
 * A fresh caller: a loopback address of its own to connect from (the gateway takes the address
 * from the connection, as Cloudflare does, never from a header the caller writes).
 */
function address(): string {
  return nextLoopbackAddress();
}

/** A count sent as the page's `fetch(…, { keepalive })` sends it: text/plain, no key, no JWT. */
function count(body: unknown, from: string, headers: Record<string, string> = {}, method = 'POST') {
  return fetchFrom(from)(`${server.url}/functions/v1/count`, {
    method,
    headers: {
      'Content-Type': 'text/plain;charset=UTF-8',
      'User-Agent': DESKTOP,
      Origin: SITE,
      ...headers,
    },
    ...(method === 'GET' ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

async function events(): Promise<Record<string, unknown>[]> {
  const { rows } = await server.db.query<Record<string, unknown>>(
    `select kind, page, source, medium, campaign, referrer, device, bundle::text, encode(visitor, 'hex') as visitor
     from private.visit_events order by id`,
  );
  return rows;
}

async function eventCount(): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>('select count(*)::int as n from private.visit_events');
  return rows[0]?.n ?? -1;
}

/** Posts a good count (a view of /upgrade) and waits until the database holds `expected` rows. */
async function settle(expected: number) {
  const res = await count({ k: 'view', p: '/upgrade' }, address());
  expect(await res.json()).toEqual({ counted: true });
  await expect.poll(eventCount, { timeout: 5000, interval: 50 }).toBe(expected);
}

describe('config', () => {
  it('has the count function open (no JWT) in supabase/config.toml', () => {
    expect(readFunctionsConfig(readFileSync('supabase/config.toml', 'utf8')).get('count')).toEqual({
      verifyJwt: false,
    });
  });
});

describe('a count', () => {
  it('is answered 202 at once, then stored with a hashed visitor, its device and referrer host', async () => {
    const before = await eventCount();
    const from = address();
    const res = await count({ k: 'view', p: '/', r: 'https://www.YouTube.com/watch?v=1' }, from);
    expect(res.status).toBe(202);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ counted: true });
    await expect.poll(eventCount, { timeout: 5000, interval: 50 }).toBe(before + 1);
    expect((await events()).slice(before)).toEqual([
      {
        kind: 'view',
        page: '/',
        source: null,
        medium: null,
        campaign: null,
        referrer: 'youtube.com',
        device: 'desktop',
        bundle: null,
        visitor: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    const { rows: raw } = await server.db.query<{ row: string }>(
      'select row_to_json(e)::text as row from private.visit_events e',
    );
    for (const { row } of raw) {
      expect(row).not.toContain(from);
      expect(row).not.toContain('Windows NT');
    }
  });

  it('carries a campaign to the same visitor’s next counts that day, and a checkout’s bundle', async () => {
    const before = await eventCount();
    const from = address();
    for (const body of [
      { k: 'view', p: '/', s: 'Podcast', c: 'Launch' },
      { k: 'view', p: '/bundles', r: `${SITE}/` },
    ]) {
      expect((await count(body, from)).status).toBe(202);
    }
    const checkout = await count({ k: 'checkout', p: '/bundles', b: 'foundation' }, from, {
      'User-Agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    });
    expect(checkout.status).toBe(202);
    await expect.poll(eventCount, { timeout: 5000, interval: 50 }).toBe(before + 3);
    // Another user agent is another visitor: no campaign of its own to inherit.
    expect((await events()).slice(before)).toEqual([
      expect.objectContaining({ kind: 'view', page: '/', source: 'podcast', campaign: 'launch', referrer: null }),
      expect.objectContaining({
        kind: 'view',
        page: '/bundles',
        source: 'podcast',
        campaign: 'launch',
        referrer: null,
      }),
      expect.objectContaining({ kind: 'checkout', bundle: 'foundation', device: 'phone', source: null }),
    ]);
  });

  it('answers the service-role key which of its secrets are set', async () => {
    const res = await fetch(`${server.url}/functions/v1/count/secrets`, {
      headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}`, apikey: SERVICE_ROLE_KEY },
    });
    expect(await res.json()).toMatchObject({ function: 'count', missing: [], optional: { SITE_URL: true } });
  });

  it('cannot be made without the function: count_visits is the service role’s only', async () => {
    const { error } = await anonClient(server.url).rpc('count_visits', { p_counts: [] });
    expect(error).not.toBeNull();
  });
});

describe('what writes nothing', () => {
  it('every refusal: 405, 413, 400 and 422', async () => {
    const before = await eventCount();
    const from = address();
    const refused: [unknown, number, string?][] = [
      [null, 405, 'GET'],
      [{ k: 'view', p: '/' }, 405, 'PUT'],
      [{ k: 'view', p: '/', r: `https://a.test/${'x'.repeat(1100)}` }, 413],
      ['{"k":"view",', 400],
      [{ k: 'view', p: '/', x: 1 }, 400],
      [{ k: 'view', p: 1 }, 400],
      [{ k: 'view', p: '/staff' }, 422],
      [{ k: 'click', p: '/' }, 422],
      [{ k: 'checkout', p: '/bundles', b: 'platinum' }, 422],
      [{ k: 'view', p: '/bundles', b: 'ebook' }, 422],
    ];
    for (const [body, status, method] of refused) {
      const res = await count(body, from, {}, method);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(await res.json()).toMatchObject({ counted: false });
    }
    await settle(before + 1);
    expect((await events()).slice(before)).toEqual([expect.objectContaining({ page: '/upgrade' })]);
  });

  it('crawlers, headless browsers and requests without a user agent: 202, not counted', async () => {
    const before = await eventCount();
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'curl/8.5.0',
      '',
    ]) {
      const res = await count({ k: 'view', p: '/' }, address(), { 'User-Agent': ua });
      expect(res.status, ua).toBe(202);
      expect(await res.json()).toEqual({ counted: false });
    }
    await settle(before + 1);
    expect((await events()).slice(before)).toEqual([expect.objectContaining({ page: '/upgrade' })]);
  });
});

describe('the rate cap', () => {
  it('takes 120 counts a minute from one address, then answers 429 and stores no more', async () => {
    // All inside one minute of the function's clock and the database's: start early in a minute.
    const second = new Date().getSeconds();
    if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const before = await eventCount();
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const batch = Array.from({ length: 20 }, () => count({ k: 'view', p: '/' }, from).then((r) => r.status));
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses.filter((s) => s === 202)).toHaveLength(120);
    const over = await count({ k: 'view', p: '/bundles' }, from);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('60');
    expect(await over.json()).toEqual({ counted: false, reason: 'rate' });
    // Another address is not held by it; once its count is written, the 120 are and no more.
    await settle(before + 121);
    expect(await eventCount()).toBe(before + 121);
  });
});
