import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A browser visitor at an address of their own. The auth server's per-IP limits key on the
 * connection's address (packages/supabase-stand-in/auth/request-limits.mjs), and Chromium
 * connects from 127.0.0.1 whatever the page does, so a browser context that must be another
 * visitor goes through this forward proxy (Playwright's `proxy` context option; it proxies
 * loopback too), which opens every connection from `localAddress` (127.0.0.0/8 is all loopback).
 */
export async function visitorProxy(localAddress: string): Promise<{ server: string; close: () => Promise<void> }> {
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const target = new URL(req.url ?? '/');
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: req.headers,
        localAddress,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  };
  const server = createServer(forward);
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
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
