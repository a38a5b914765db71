// @ts-check
// Callers at addresses of their own, for tests and benchmarks that play several visitors. The
// stand-in, like the hosted gateway, takes the caller's address from the connection, not from a
// header (auth/request-limits.mjs), so a visitor is a different source address. Linux routes all
// of 127.0.0.0/8 to the loopback interface: a client that binds 127.A.B.C reaches the stand-in on
// 127.0.0.1 and is seen as 127.A.B.C.
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';

let visitors = 0;

/**
 * A loopback address no other caller of this process was given, and none of another process
 * (the second octet follows the process id), never 127.0.0.1 (the browser's and the default).
 */
export function nextLoopbackAddress() {
  visitors += 1;
  const processOctet = 1 + (process.pid % 254);
  return `127.${processOctet}.${Math.floor(visitors / 254) % 256}.${1 + (visitors % 254)}`;
}

/** @param {import('node:http').IncomingHttpHeaders} raw */
function responseHeaders(raw) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * A `fetch` (http: only) whose connections come from `localAddress`: hand it to supabase-js as
 * `global.fetch`, or call it as fetch. Redirects are not followed (as `redirect: 'manual'`).
 * @param {string} localAddress
 * @returns {typeof fetch}
 */
export function fetchFrom(localAddress) {
  return async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (url.protocol !== 'http:') throw new TypeError(`fetchFrom: only http: URLs, not ${url.protocol}`);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : null;
    /** @type {Record<string, string>} */
    const headers = Object.fromEntries(req.headers);
    if (body) headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: url.hostname,
          port: url.port || 80,
          path: `${url.pathname}${url.search}`,
          method: req.method,
          headers,
          localAddress,
          family: 4,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const empty = req.method === 'HEAD' || [204, 205, 304].includes(status);
          if (empty) res.resume();
          const stream = empty ? null : /** @type {ReadableStream} */ (Readable.toWeb(res));
          resolve(
            new Response(stream, { status, statusText: res.statusMessage, headers: responseHeaders(res.headers) }),
          );
        },
      );
      outgoing.on('error', reject);
      req.signal.addEventListener('abort', () => outgoing.destroy(new Error('aborted')));
      outgoing.end(body ?? undefined);
    });
  };
}
