import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPreflightLatency } from './preflight-latency.mjs';

const LATENCY_MS = 150;

/** An upstream that answers each request with what it got, and echoes an upgraded socket. */
async function startUpstream() {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'Content-Type': 'application/json', 'X-Upstream': 'yes' });
      response.end(JSON.stringify({ method: request.method, url: request.url, body, apikey: request.headers.apikey }));
    });
  });
  server.on('upgrade', (request, socket) => {
    seen.push(`UPGRADE ${request.url}`);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.close() };
}

/** One request through node:http (not fetch: its timers are not the ones faked here). */
function send(url: string, method: string, headers: Record<string, string> = {}, body = '') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('the bench’s preflight latency', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let proxy: Awaited<ReturnType<typeof startPreflightLatency>>;

  beforeEach(async () => {
    upstream = await startUpstream();
    proxy = await startPreflightLatency({ target: upstream.url, port: 0, latencyMs: LATENCY_MS });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
  });

  afterEach(() => {
    vi.useRealTimers();
    proxy.close();
    upstream.close();
  });

  it('passes a call through at once, with its method, address, headers and body', async () => {
    const answer = await send(`${proxy.url}/rest/v1/rpc/member_resources?x=1`, 'POST', { apikey: 'key' }, '{}');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-upstream']).toBe('yes');
    expect(JSON.parse(answer.body)).toEqual({
      method: 'POST',
      url: '/rest/v1/rpc/member_resources?x=1',
      body: '{}',
      apikey: 'key',
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('holds a preflight for the round trip, and only a preflight', async () => {
    const preflight = send(`${proxy.url}/auth/v1/token?grant_type=password`, 'OPTIONS', {
      Origin: 'http://site.test',
      'Access-Control-Request-Method': 'POST',
    });
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    expect(upstream.seen).toEqual([]);

    // An OPTIONS that asks about no method is a call like any other.
    expect((await send(`${proxy.url}/rest/v1/`, 'OPTIONS')).status).toBe(200);
    expect(upstream.seen).toEqual(['OPTIONS /rest/v1/']);

    vi.advanceTimersByTime(LATENCY_MS);
    expect((await preflight).status).toBe(200);
    expect(upstream.seen).toEqual(['OPTIONS /rest/v1/', 'OPTIONS /auth/v1/token?grant_type=password']);
  });

  it('passes the realtime socket’s upgrade through, both ways', async () => {
    const socket = await new Promise<import('node:net').Socket>((resolve, reject) => {
      const request = http.request(`${proxy.url}/realtime/v1/websocket?apikey=key`, {
        headers: { Connection: 'Upgrade', Upgrade: 'websocket' },
      });
      request.on('upgrade', (_response, upgraded) => resolve(upgraded));
      request.on('error', reject);
      request.end();
    });
    const echoed = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    socket.write('ping');
    expect(await echoed).toBe('ping');
    expect(upstream.seen).toEqual(['UPGRADE /realtime/v1/websocket?apikey=key']);
    socket.destroy();
  });
});
