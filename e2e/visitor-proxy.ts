import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A browser visitor at an address of their own. The auth server's per-IP limits key on the
 * connection's address (packages/supabase-stand-in/auth/request-limits.mjs), and Chromium
 * connects from 127.0.0.1 whatever the page does, so a browser context that must be another
 * visitor goes through this forward proxy (Playwright's `proxy` context option; it proxies
 * loopback too), which opens every connection from `localAddress` (127.0.0.0/8 is all loopback).
 *
 * `post` sends a request of the test's own from the same address, over the same single
 * keep-alive connection as the visitor's requests; `holdNext(path, before)` holds the visitor's
 * next POST to `path` until `before()` is done, then forwards it at once on that connection.
 */
export async function visitorProxy(localAddress: string) {
  // One connection to each origin, kept alive: what the test sends and then the visitor's held
  // request go out back to back on it, nothing in between.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const holds = new Map<string, () => Promise<void>>();
  const send = (
    target: URL,
    method: string,
    headers: IncomingMessage['headers'],
    reply: (a: IncomingMessage) => void,
  ) =>
    request(
      {
        host: target.hostname,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method,
        headers,
        localAddress,
        agent,
      },
      reply,
    );
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const target = new URL(req.url ?? '/');
    // The POST itself, not its CORS preflight.
    const before = req.method === 'POST' ? holds.get(target.pathname) : undefined;
    if (before) {
      holds.delete(target.pathname);
      await before();
    }
    const outgoing = send(target, req.method ?? 'GET', req.headers, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  };
  const server = createServer((req, res) => {
    forward(req, res).catch(() => res.destroy());
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Websockets (realtime) come as CONNECT tunnels.
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect({ host, port: Number(port), localAddress }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  /** A JSON POST from the visitor's address; resolves with the status once the answer is read. */
  const post = (url: string, headers: Record<string, string>, body: string) =>
    new Promise<number>((resolve, reject) => {
      const outgoing = send(
        new URL(url),
        'POST',
        { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        (a) => {
          a.resume();
          a.on('end', () => resolve(a.statusCode ?? 0));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return {
    server: `http://127.0.0.1:${port}`,
    post,
    holdNext: (path: string, before: () => Promise<void>) => holds.set(path, before),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
