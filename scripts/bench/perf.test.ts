import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  figuresOf,
  formatTable,
  formatVerdicts,
  lighthouseVerdicts,
  median,
  pickEncoding,
  resolveFile,
  serveDist,
  withinLimit,
  simulatedLcpOverFloor,
  withoutScripts,
} from './perf.mjs';

// A small built site: prerendered /, /bundles (as a folder) and /upgrade (as a file).
const dist = fileURLToPath(new URL('../checks/fixtures/budgets/lean', import.meta.url));

describe('resolveFile: what a static host answers', () => {
  it("serves prerendered pages in either form, files as they are, and the app's shell for app routes", () => {
    expect(resolveFile(dist, '/')).toBe('index.html');
    expect(resolveFile(dist, '/bundles')).toBe('bundles/index.html');
    expect(resolveFile(dist, '/bundles/')).toBe('bundles/index.html');
    expect(resolveFile(dist, '/upgrade')).toBe('upgrade.html');
    expect(resolveFile(dist, '/assets/entry.js')).toBe('assets/entry.js');
    expect(resolveFile(dist, '/resources')).toBe('spa.html');
  });

  it('falls back to index.html in a build without the shell', () => {
    const noShell = fileURLToPath(new URL('../checks/fixtures/budgets/heavy', import.meta.url));
    expect(resolveFile(noShell, '/resources')).toBe('index.html');
  });

  it('keeps a missing hashed asset a 404 and never leaves the folder', () => {
    expect(resolveFile(dist, '/assets/gone-1234.js')).toBeNull();
    expect(resolveFile(dist, '/../package.json')).toBe('spa.html');
    expect(resolveFile(dist, '/%2e%2e/package.json')).toBe('spa.html');
  });
});

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, honouring q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('serveDist', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = await serveDist({ dir: dist, port: 0 });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  function get(pathname: string, acceptEncoding?: string, at = port) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const headers = acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {};
      http
        .get({ host: '127.0.0.1', port: at, path: pathname, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    });
  }

  it('sends the precompressed page the browser asks for, with the production headers', async () => {
    const br = await get('/bundles', 'gzip, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(brotliDecompressSync(br.body).toString()).toContain('<h1 class="hero">Bundles</h1>');

    const gzip = await get('/bundles', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toContain('<h1 class="hero">Bundles</h1>');

    const plain = await get('/bundles');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('<h1 class="hero">Bundles</h1>');
  });

  it("caches hashed assets for a year, falls back to the app's shell, and 404s a missing chunk", async () => {
    const asset = await get('/assets/entry.js', 'br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const route = await get('/resources');
    expect(route.status).toBe(200);
    expect(route.headers['cache-control']).toBe('no-cache');
    expect(route.body.toString()).toContain('<div id="root"></div>');
    expect((await get('/assets/gone.js')).status).toBe(404);
  });

  it('answers with what it compressed at start, so no first request waits for the compression', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'serve-dist-'));
    cpSync(dist, copy, { recursive: true });
    const early = await serveDist({ dir: copy, port: 0 });
    try {
      const page = path.join(copy, 'upgrade.html');
      const before = readFileSync(page, 'utf8');
      writeFileSync(page, before.replace('Upgrade', 'Changed after start'));
      const { body } = await get('/__nojs/upgrade', 'br', (early.address() as AddressInfo).port);
      expect(brotliDecompressSync(body).toString()).toBe(withoutScripts(before));
    } finally {
      early.close();
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('serves each page without its scripts under /__nojs, the rest as it is', async () => {
    const page = (await get('/bundles')).body.toString();
    expect(page).toMatch(/<script/);
    const noJs = await get('/__nojs/bundles');
    expect(noJs.status).toBe(200);
    expect(noJs.headers['x-content-type-options']).toBe('nosniff');
    expect(noJs.body.toString()).toContain('<h1 class="hero">Bundles</h1>');
    expect(noJs.body.toString()).not.toMatch(/<script/);
    expect((await get('/__nojs/assets/entry.js')).body.toString()).toBe(
      (await get('/assets/entry.js')).body.toString(),
    );
  });
});

describe('withoutScripts', () => {
  it('takes out inline, module and speculation-rules scripts, and nothing else', () => {
    const html =
      '<head><script>hold()</script><script type="speculationrules">{"prefetch":[]}</script>' +
      '<style>a{}</style></head><body><h1>Hi</h1><script type="module" crossorigin src="/assets/a.js"></script></body>';
    expect(withoutScripts(html)).toBe('<head><style>a{}</style></head><body><h1>Hi</h1></body>');
  });

  it('takes out links that fetch a script ahead, and keeps the other links', () => {
    const html =
      '<head><link rel="modulepreload" crossorigin href="/assets/a.js"><link rel="preload" as="script" href="/b.js">' +
      '<link rel="preload" as="image" href="/cover.webp" fetchPriority="high"/><link rel="icon" href="/favicon.svg" />' +
      '</head>';
    expect(withoutScripts(html)).toBe(
      '<head><link rel="preload" as="image" href="/cover.webp" fetchPriority="high"/><link rel="icon" href="/favicon.svg" /></head>',
    );
  });
});

describe('the limits table', () => {
  const run = (lcp: number, score: number) => ({ score, fcp: 900, lcp, tbt: 0, cls: 0, bytes: 1, requests: 1 });

  it('holds each public page (not a member page) to a score of 100 and its applied LCP within 1.10x of its page without JS', () => {
    const rows = lighthouseVerdicts([
      {
        path: '/',
        // The simulated LCP is the score's, not the ratio's: 1.30x here would be over.
        runs: [run(1300, 100), run(1300, 100), run(1300, 99)],
        applied: [run(1050, 90), run(1100, 90), run(1200, 90)],
        floor: [run(1000, 100), run(1000, 100)],
      },
      { path: '/resources', runs: [run(1500, 100)], applied: [], floor: [] },
    ]);
    expect(rows.map((row) => [row.name, withinLimit(row)])).toEqual([
      ['Lighthouse /: score', true],
      ['Lighthouse /: LCP / no-JS LCP (applied)', true],
    ]);
    expect(rows[1]?.runs).toEqual([1.05, 1.1, 1.2]);
    const slow = lighthouseVerdicts([
      { path: '/auth', runs: [run(1000, 99)], applied: [run(1200, 100)], floor: [run(1000, 100)] },
    ]);
    expect(slow.map(withinLimit)).toEqual([false, false]);
  });

  it('reports the simulated LCP over the simulated floor for each public page', () => {
    expect(
      simulatedLcpOverFloor([
        { path: '/', runs: [run(1280, 100), run(1300, 100), run(1250, 100)], simulatedFloor: [run(1000, 100)] },
        { path: '/resources', runs: [run(1500, 100)], simulatedFloor: [] },
      ]),
    ).toBe('/ 1.28x');
  });

  it('prints every row with its limit and median, and marks the ones over', () => {
    const table = formatVerdicts([
      { name: 'next page, 4x: tap / → /auth', runs: [120, 310, 150], limit: 300, unit: 'ms', atMost: true },
      { name: 'sign-in to files, 6x', runs: [1200, 1100, 900], limit: 1000, unit: 'ms', atMost: true },
      { name: 'Lighthouse /: LCP / no-JS LCP', runs: [1.05], limit: 1.1, unit: 'x', atMost: true },
    ]);
    expect(table.split('\n')).toEqual([
      '| measure                       | limit     | median  | runs            |      |',
      '| ----------------------------- | --------- | ------- | --------------- | ---- |',
      '| next page, 4x: tap / → /auth  | ≤ 300 ms  | 150 ms  | 120, 310, 150   | ok   |',
      '| sign-in to files, 6x          | ≤ 1000 ms | 1100 ms | 1200, 1100, 900 | OVER |',
      '| Lighthouse /: LCP / no-JS LCP | ≤ 1.10x   | 1.05x   | 1.05x           | ok   |',
    ]);
  });
});

describe('the results table', () => {
  it('takes the median of each figure over the runs', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const run = (lcp: number, score: number) => ({ score, fcp: 900, lcp, tbt: 20, cls: 0, bytes: 52_400, requests: 6 });
    const table = formatTable([{ path: '/', runs: [run(1300, 97), run(1100, 100), run(1200, 99)] }]);
    expect(table.split('\n')).toEqual([
      '| page | score | FCP    | LCP    | TBT   | CLS   | transferred | requests |',
      '| ---- | ----- | ------ | ------ | ----- | ----- | ----------- | -------- |',
      '| /    | 99    | 0.90 s | 1.20 s | 20 ms | 0.000 | 52.4 kB     | 6        |',
    ]);
  });

  it('reads the figures from a Lighthouse result', () => {
    const audit = (numericValue: number) => ({ numericValue });
    const lhr = {
      categories: { performance: { score: 0.98 } },
      audits: {
        'first-contentful-paint': audit(1000),
        'largest-contentful-paint': audit(1500),
        'total-blocking-time': audit(30),
        'cumulative-layout-shift': audit(0.01),
        'total-byte-weight': audit(120_000),
        'network-requests': { details: { items: [{}, {}, {}] } },
      },
    };
    expect(figuresOf(lhr)).toEqual({
      score: 98,
      fcp: 1000,
      lcp: 1500,
      tbt: 30,
      cls: 0.01,
      bytes: 120_000,
      requests: 3,
    });
  });
});
