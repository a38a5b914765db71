// @ts-check
// GET /inbox: the mail the stand-in would have sent (recovery and invitation links). Mounted
// before the gateway's CORS, so neither its answers nor its preflight carry any CORS header.
import { Hono } from 'hono';
import { inbox } from '../auth/mail.mjs';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../keys.mjs';
import { urlOf } from '../gateway/kong.mjs';

/**
 * Serves only `/inbox` itself (hono would match `/inbox/` too) and not HEAD: anything else goes on
 * to the gateway's CORS and its "no route" answer.
 * @param {import('hono').Handler} handler
 * @returns {import('hono').Handler}
 */
const inboxOnly = (handler) => (c, next) =>
  urlOf(c).pathname === '/inbox' && c.req.method !== 'HEAD' ? handler(c, next) : next();

/**
 * @param {import('../auth/context.mjs').AuthContext} auth
 */
export function inboxRoutes(auth) {
  const app = new Hono();
  app.get(
    '/',
    inboxOnly(async (c) => {
      // Recovery links are bearer credentials: only callers holding a demo key may read them,
      // and no CORS headers are sent, so no other web page can read the inbox from a browser.
      const key = c.req.header('apikey');
      const allowed = key === ANON_KEY || key === SERVICE_ROLE_KEY;
      const body = allowed
        ? await inbox(auth, urlOf(c))
        : { message: key ? 'Invalid authentication credentials' : 'No API key found in request' };
      const text = JSON.stringify(body);
      return new Response(text, {
        status: allowed ? 200 : 401,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(text)),
          'Cache-Control': 'no-store',
        },
      });
    }),
  );
  // No CORS for the inbox: the preflight fails in the browser.
  app.options(
    '/',
    inboxOnly(() => new Response(null, { status: 204, headers: { Allow: 'GET' } })),
  );
  return app;
}
