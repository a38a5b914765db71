// @ts-check
// The phone's round trip for CORS preflights. Chrome's network emulation (the bench's 150 ms
// round trips) delays every request a page makes but not the preflights Chrome sends for them:
// measured on the bench's phone, a preflight to the stand-in answered in 4 to 9 ms while its call
// took 175 ms. On a real phone a preflight costs a round trip like any request, so the bench puts
// the stand-in behind this proxy, which answers each preflight that much later and passes
// everything else (requests, and the realtime socket's upgrade) straight through.
import http from 'node:http';
import net from 'node:net';

/** A CORS preflight: an OPTIONS that names the method it asks about. */
export function isPreflight(/** @type {http.IncomingMessage} */ request) {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/**
 * Listens on `port` (0: any free one) in front of `target` (an http:// origin), holding each
 * preflight `latencyMs` before passing it on. Resolves with its origin and a `close`.
 * @param {{ target: string, port: number, latencyMs: number }} options
 * @returns {Promise<{ url: string, close: () => void }>}
 */
export function startPreflightLatency({ target, port, latencyMs }) {
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    const pass = () => {
      const onward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
          answer.pipe(response);
        },
      );
      onward.on('error', () => response.destroy());
      request.pipe(onward);
    };
    if (isPreflight(request)) setTimeout(pass, latencyMs);
    else pass();
  });
  server.on('upgrade', (request, socket, head) => {
    const onward = net.connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      }
      onward.write(`${lines.join('\r\n')}\r\n\r\n`);
      onward.write(head);
      socket.pipe(onward).pipe(socket);
    });
    const close = () => {
      socket.destroy();
      onward.destroy();
    };
    onward.on('error', close);
    socket.on('error', close);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = /** @type {net.AddressInfo} */ (server.address());
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      });
    });
  });
}
