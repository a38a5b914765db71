// @ts-check
// The edge runtime's answers in front of a function (github.com/supabase/edge-runtime, and the
// CLI's functions serve): its JWT check, its own error bodies, and the request proxied to the
// function's worker, streamed both ways.
import { request as httpRequest } from 'node:http';
import { verifyJwt } from '../keys.mjs';

/**
 * The edge runtime's own answers: JSON, or plain text for a string.
 * @param {number} status
 * @param {unknown} body
 */
export function answer(status, body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, {
    status,
    headers: {
      'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
    },
  });
}

/**
 * The edge runtime's JWT check: the Authorization bearer must be signed with the project secret.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<string | null>} the refusal's message, or null
 */
export async function jwtError(req) {
  const header = req.headers.authorization;
  if (!header) return 'Error: Missing authorization header';
  const [scheme, token] = header.split(' ');
  if (scheme !== 'Bearer') return "Error: Auth header is not 'Bearer {token}'";
  try {
    await verifyJwt(token);
    return null;
  } catch {
    return 'Invalid JWT';
  }
}

/**
 * Sends the request to the worker on `port` and its answer to `res`; a worker that fails is the
 * runtime's 500 WORKER_ERROR. Resolves once the answer has been sent.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {number} port
 * @param {string} target the path and query the function sees
 * @returns {Promise<void>}
 */
export function proxy(req, res, port, target) {
  return new Promise((resolve) => {
    // Who called, as hosted Supabase tells a function: Cloudflare replaces any CF-Connecting-IP,
    // True-Client-IP and X-Real-IP the caller sent, sets CF-Connecting-IP and X-Real-IP to the
    // address that connected, and appends that address to X-Forwarded-For (Kong's
    // proxy_add_x_forwarded_for). Here the address that connected is the TCP peer.
    const client = (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    const forwarded = [req.headers['x-forwarded-for'], client].filter(Boolean).join(', ');
    const {
      'cf-connecting-ip': _forgedCf,
      'true-client-ip': _forgedTrue,
      'x-real-ip': _forgedReal,
      ...sent
    } = req.headers;
    const headers = {
      ...sent,
      host: `127.0.0.1:${port}`,
      ...(client ? { 'cf-connecting-ip': client, 'x-real-ip': client } : {}),
      ...(forwarded ? { 'x-forwarded-for': forwarded } : {}),
    };
    const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path: target, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', () => resolve());
      answer.on('error', () => resolve());
    });
    upstream.on('error', () => {
      if (!res.headersSent) {
        const text = JSON.stringify({
          code: 'WORKER_ERROR',
          message: 'Function exited due to an error (please check logs)',
        });
        res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      } else res.destroy();
      resolve();
    });
    req.pipe(upstream);
  });
}
