// @ts-check
// /auth/v1's route table, as GoTrue's (supabase/auth internal/api/api.go): the GoTrue subset, one
// module of this folder per endpoint group. Every route but GET /health and GET /verify needs the
// API key, as behind Kong; errors have GoTrue's bodies and headers. The context (database, URLs, posture) is passed to each handler explicitly.
import { Hono } from 'hono';
import { adminCreate, adminDelete, adminGet, adminList, adminUpdate } from './admin.mjs';
import { AUTH_HEADERS, asAuthError, authError, authErrorBody, refuseNulBody, refuseNulQuery } from './errors.mjs';
import { generateLink } from './generate-link.mjs';
import { invite } from './invite.mjs';
import { recover } from './recover.mjs';
import { currentUser, requireAdmin } from './sessions.mjs';
import { health, settings } from './settings.mjs';
import { resend, signup } from './signup.mjs';
import { token } from './token.mjs';
import { getUser, logout, updateUser } from './user.mjs';
import { followLink, verify } from './verify.mjs';
import { clientAddress } from './request-limits.mjs';
import { bearerToken, HttpError, jsonResponse } from '../http.mjs';
import { getOnly, jsonReader, nodeRequest, requireApiKey, subPath, urlOf } from '../gateway/kong.mjs';

/** @typedef {import('hono').Context<import('../gateway/kong.mjs').Env>} Ctx */

/**
 * A 200 with GoTrue's headers.
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
const ok = (body, headers = {}) => jsonResponse(200, body, { ...AUTH_HEADERS, ...headers });

/**
 * The request's JSON body, NUL refused; GoTrue's errors for a body too large or not JSON.
 * @param {Ctx} c
 */
const body = (c) =>
  jsonReader(nodeRequest(c), {
    tooLarge: () => new HttpError(413, { code: 413, error_code: 'request_too_large', msg: 'Request body too large' }),
    bad: () => authError(400, 'bad_json', 'Could not parse request body as JSON'),
  })().then(refuseNulBody);
/** @param {Ctx} c */
const tokenOf = (c) => bearerToken(nodeRequest(c));
/** @param {Ctx} c @param {string} name */
const query = (c, name) => urlOf(c).searchParams.get(name);

/**
 * The admin user API (service role): other methods on these paths are 405.
 * @param {Hono<import('../gateway/kong.mjs').Env>} app
 * @param {import('./context.mjs').AuthContext} ctx
 */
function adminRoutes(app, ctx) {
  const adminPaths = ['/admin/users', '/admin/users/:id'];
  for (const path of adminPaths)
    app.all(path, async (c, next) => {
      await requireAdmin(tokenOf(c));
      await next();
    });
  app.get(
    '/admin/users',
    getOnly(async (c) => {
      const { body: list, headers } = await adminList(ctx, urlOf(c));
      return ok(list, headers);
    }),
  );
  app.post('/admin/users', async (c) => ok(await adminCreate(ctx, await body(c))));
  app.get(
    '/admin/users/:id',
    getOnly(async (c) => ok(await adminGet(ctx, c.req.param('id') ?? ''))),
  );
  app.put('/admin/users/:id', async (c) => ok(await adminUpdate(ctx, c.req.param('id'), await body(c))));
  app.delete('/admin/users/:id', async (c) => ok(await adminDelete(ctx, c.req.param('id'))));
  app.post('/admin/generate_link', async (c) => {
    await requireAdmin(tokenOf(c));
    return ok(await generateLink(ctx, await body(c), query(c, 'redirect_to')));
  });
  for (const path of adminPaths)
    app.all(path, () => {
      throw authError(405, 'method_not_allowed', 'Method not allowed');
    });
}

/**
 * Spends one request of GoTrue's per-IP limiter `name` for the caller, or throws its 429.
 * @param {import('./context.mjs').AuthContext} ctx
 * @param {Ctx} c
 * @param {import('./request-limits.mjs').LimitName} name
 */
const spend = (ctx, c, name) => ctx.requestLimits.take(name, clientAddress(nodeRequest(c)));

/** GoTrue's Token handler: these grants spend the Token limiter, after the grant type is known. */
const TOKEN_GRANTS = new Set(['password', 'refresh_token', 'id_token', 'pkce']);

/**
 * The endpoints of a signed-in user and the e-mailed links.
 * @param {Hono<import('../gateway/kong.mjs').Env>} app
 * @param {import('./context.mjs').AuthContext} ctx
 */
function userRoutes(app, ctx) {
  app.post('/signup', async (c) => {
    const given = await body(c);
    // An anonymous sign-up (no address) is refused before the limiter (anonymous sign-ins are off).
    const { email, phone } = /** @type {Record<string, unknown>} */ (given ?? {});
    if (email || phone) spend(ctx, c, 'signups');
    return ok(await signup(ctx, given, query(c, 'redirect_to')));
  });
  app.post('/resend', async (c) => {
    spend(ctx, c, 'resend');
    return ok(await resend(ctx, await body(c), query(c, 'redirect_to')));
  });
  app.post('/token', async (c) => {
    if (TOKEN_GRANTS.has(query(c, 'grant_type') ?? '')) spend(ctx, c, 'token');
    return ok(await token(ctx, query(c, 'grant_type'), () => body(c)));
  });
  app.get(
    '/user',
    getOnly(async (c) => ok(await getUser(ctx, tokenOf(c)))),
  );
  // internal/api/api.go: /user is behind requireAuthentication, and PUT's limiter comes after it,
  // so a request without a valid session is 401/403 every time and spends nothing.
  app.put('/user', async (c) => {
    const caller = await currentUser(ctx, tokenOf(c));
    spend(ctx, c, 'user');
    return ok(await updateUser(ctx, caller, await body(c), query(c, 'redirect_to')));
  });
  app.post('/logout', async (c) => {
    await logout(ctx, tokenOf(c), query(c, 'scope') ?? 'global');
    return new Response(null, { status: 204, headers: AUTH_HEADERS });
  });
  app.post('/recover', async (c) => {
    spend(ctx, c, 'recover');
    return ok(await recover(ctx, await body(c), query(c, 'redirect_to')));
  });
  app.post('/invite', async (c) => {
    await requireAdmin(tokenOf(c));
    return ok(await invite(ctx, await body(c), query(c, 'redirect_to')));
  });
  app.post('/verify', async (c) => {
    spend(ctx, c, 'verify');
    return ok(await verify(ctx, await body(c)));
  });
  // The e-mailed link: always a redirect, with a session or GoTrue's error in the fragment.
  app.get(
    '/verify',
    getOnly(async (c) => {
      spend(ctx, c, 'verify');
      return new Response(null, { status: 303, headers: { Location: await followLink(ctx, urlOf(c)) } });
    }),
  );
}

/**
 * @param {import('./context.mjs').AuthContext} ctx
 */
export function authRoutes(ctx) {
  /** @type {Hono<import('../gateway/kong.mjs').Env>} */
  const app = new Hono();
  app.use('*', async (c, next) => {
    const sub = subPath(c, '/auth/v1');
    if (!(c.req.method === 'GET' && (sub === 'verify' || sub === 'health')))
      await requireApiKey(nodeRequest(c), urlOf(c));
    refuseNulQuery(urlOf(c));
    await next();
  });
  adminRoutes(app, ctx);
  app.get(
    '/health',
    getOnly(() => ok(health())),
  );
  app.get(
    '/settings',
    getOnly(() => ok(settings(ctx))),
  );
  userRoutes(app, ctx);
  app.all('*', () => {
    throw authError(404, 'not_found', 'Not Found');
  });

  app.onError((err, c) => {
    const e = asAuthError(err);
    if (!(e instanceof HttpError)) throw err;
    nodeRequest(c).resume();
    return jsonResponse(e.status, authErrorBody(nodeRequest(c), e), { ...AUTH_HEADERS, ...e.headers });
  });
  return app;
}
