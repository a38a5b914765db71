// @ts-check
// The stand-in's HTTP surface: one hono app, as Kong routes `supabase start`'s services. The
// gateway's own answers live here (CORS, the key check through each route group, "no route",
// 426 for realtime over plain HTTP, errors); each service's route group is its folder's routes.mjs.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { HttpError, jsonResponse } from './http.mjs';
import { authRoutes } from './auth/routes.mjs';
import { kongCors } from './gateway/cors.mjs';
import { functionsRoutes } from './functions/routes.mjs';
import { getOnly, NO_ROUTE, urlOf } from './gateway/kong.mjs';
import { inboxRoutes } from './inbox/routes.mjs';
import { mailApiRoutes } from './inbox/mail-api.mjs';
import { sendMail } from './auth/mail.mjs';
import { LOCAL_MAIL_API } from './functions/secrets.mjs';
import { restRoutes } from './rest/routes.mjs';
import { storageRoutes } from './storage/routes.mjs';

/**
 * Each service as its route group takes it (the inbox reads the auth service's mail).
 * @param {{
 *   auth: Parameters<typeof authRoutes>[0] & Parameters<typeof inboxRoutes>[0],
 *   rest: Parameters<typeof restRoutes>[0],
 *   storage: Parameters<typeof storageRoutes>[0],
 *   functions: Parameters<typeof functionsRoutes>[0],
 *   log: (m: string) => void,
 *   mailApi?: { dailyQuota?: number },
 * }} services
 *   mailApi: the transactional mail API's quota (tests).
 */
export function createApp({ auth, rest, storage, functions, log, mailApi = {} }) {
  // strict: false, as the services have always taken a path with or without a trailing slash.
  /** @type {Hono<{ Bindings: import('@hono/node-server').HttpBindings, Variables: { url: URL } }>} */
  const app = new Hono({ strict: false });
  const noRoute = () => jsonResponse(404, NO_ROUTE);
  /**
   * Only this exact path: hono's non-strict matching would take `path/` too.
   * @param {string} path
   * @param {import('hono').Handler<import('./gateway/kong.mjs').Env>} handler
   * @returns {import('hono').MiddlewareHandler<import('./gateway/kong.mjs').Env>}
   */
  const exactly = (path, handler) => (c, next) => (urlOf(c).pathname === path ? handler(c, next) : next());

  app.use('*', async (c, next) => {
    let url;
    try {
      url = new URL(c.env.incoming.url ?? '/', 'http://local');
    } catch {
      throw new HttpError(400, { message: 'Bad request URL' });
    }
    c.set('url', url);
    await next();
  });

  // No CORS at all: not on its answers, not on its preflight.
  app.route('/inbox', inboxRoutes(auth));
  // The mail provider's API, server to server: no CORS either, as the provider sends none.
  const deliver = (/** @type {Parameters<typeof sendMail>[2]} */ mail) => sendMail(auth, auth.db, mail);
  app.route(LOCAL_MAIL_API.path, mailApiRoutes({ key: LOCAL_MAIL_API.key, deliver, ...mailApi }));
  // Every other preflight, as Kong's cors plugin answers it.
  app.options('*', kongCors());
  // A function's answer is the function's own (no CORS headers added).
  app.route('/functions/v1', functionsRoutes(functions));
  app.use('*', kongCors());

  app.route('/auth/v1', authRoutes(auth));
  app.route('/rest/v1', restRoutes(rest));
  // /storage/v1 itself is no route; /storage/v1/ is storage's own "Route not found".
  app.all('/storage/v1', exactly('/storage/v1', noRoute));
  app.route('/storage/v1', storageRoutes(storage));
  app.get(
    '/',
    getOnly(() =>
      jsonResponse(200, {
        name: 'local Supabase stand-in',
        services: ['/auth/v1', '/rest/v1', '/storage/v1', '/realtime/v1/websocket', '/functions/v1/<name>'],
        inbox: '/inbox',
      }),
    ),
  );
  // The websocket itself is served on the Node server's `upgrade` (server.mjs).
  app.all('/realtime/v1/*', (c, next) =>
    urlOf(c).pathname.startsWith('/realtime/v1/')
      ? jsonResponse(426, { message: 'Upgrade Required: connect a websocket to /realtime/v1/websocket' })
      : next(),
  );
  app.notFound(noRoute);

  app.onError((err, c) => {
    // Whatever was not read of the body is drained, so the connection stays usable.
    c.env.incoming.resume();
    if (err instanceof HttpError) return jsonResponse(err.status, err.body, err.headers);
    const e = /** @type {any} */ (err);
    log(`[local supabase] ${c.req.method} ${c.get('url')?.pathname ?? c.req.path} failed: ${e?.stack ?? e}`);
    if (c.env.outgoing.headersSent) {
      c.env.outgoing.destroy();
      return RESPONSE_ALREADY_SENT;
    }
    return jsonResponse(500, { message: 'Internal server error', error: String(e?.message ?? e) });
  });
  return app;
}
