// /auth/v1: the GoTrue subset (auth.mjs holds the endpoints). Every route but GET /health and
// GET /verify needs the API key, as behind Kong; errors have GoTrue's bodies and headers.
import { Hono } from 'hono';
import { AUTH_HEADERS, authError, authErrorBody } from '../auth.mjs';
import { bearerToken, HttpError, jsonResponse } from '../http.mjs';
import { getOnly, jsonReader, nodeRequest, requireApiKey, subPath, urlOf } from './gateway.mjs';

/** @typedef {ReturnType<typeof import('../auth.mjs').createAuthService>} AuthService */

/**
 * @param {AuthService} auth
 */
export function authRoutes(auth) {
  /** @type {Hono<{ Bindings: import('@hono/node-server').HttpBindings }>} */
  const app = new Hono();
  const ok = (body, headers = {}) => jsonResponse(200, body, { ...AUTH_HEADERS, ...headers });
  /** The request's JSON body, NUL refused; GoTrue's errors for a body too large or not JSON. */
  const body = (c) =>
    jsonReader(nodeRequest(c), {
      tooLarge: () => new HttpError(413, { code: 413, error_code: 'request_too_large', msg: 'Request body too large' }),
      bad: () =>
        Object.assign(
          new HttpError(400, { code: 400, error_code: 'bad_json', msg: 'Could not parse request body as JSON' }),
          { authCode: 'bad_json' },
        ),
    })().then(auth.refuseNulBody);
  const token = (c) => bearerToken(nodeRequest(c));
  const query = (c, name) => urlOf(c).searchParams.get(name);

  app.use('*', async (c, next) => {
    const sub = subPath(c, '/auth/v1');
    if (!(c.req.method === 'GET' && (sub === 'verify' || sub === 'health')))
      await requireApiKey(nodeRequest(c), urlOf(c));
    auth.refuseNulQuery(urlOf(c));
    await next();
  });

  // The admin user API (service role): other methods on these paths are 405.
  const adminPaths = ['/admin/users', '/admin/users/:id'];
  for (const path of adminPaths)
    app.all(path, async (c, next) => {
      await auth.requireAdmin(token(c));
      await next();
    });
  app.get(
    '/admin/users',
    getOnly(async (c) => {
      const { body: list, headers } = await auth.adminList(urlOf(c));
      return ok(list, headers);
    }),
  );
  app.post('/admin/users', async (c) => ok(await auth.adminCreate(await body(c))));
  app.get(
    '/admin/users/:id',
    getOnly(async (c) => ok(await auth.adminGet(c.req.param('id')))),
  );
  app.put('/admin/users/:id', async (c) => ok(await auth.adminUpdate(c.req.param('id'), await body(c))));
  app.delete('/admin/users/:id', async (c) => ok(await auth.adminDelete(c.req.param('id'))));
  for (const path of adminPaths)
    app.all(path, () => {
      throw authError(405, 'method_not_allowed', 'Method not allowed');
    });

  app.get(
    '/health',
    getOnly(() => ok(auth.health())),
  );
  app.get(
    '/settings',
    getOnly(() => ok(auth.settings())),
  );
  app.post('/signup', async (c) => ok(await auth.signup(await body(c), query(c, 'redirect_to'))));
  app.post('/resend', async (c) => ok(await auth.resend(await body(c), query(c, 'redirect_to'))));
  app.post('/token', async (c) => ok(await auth.token(query(c, 'grant_type'), () => body(c))));
  app.get(
    '/user',
    getOnly(async (c) => ok(await auth.getUser(token(c)))),
  );
  app.put('/user', async (c) => ok(await auth.updateUser(token(c), await body(c), query(c, 'redirect_to'))));
  app.post('/logout', async (c) => {
    await auth.logout(token(c), query(c, 'scope') ?? 'global');
    return new Response(null, { status: 204, headers: AUTH_HEADERS });
  });
  app.post('/recover', async (c) => ok(await auth.recover(await body(c), query(c, 'redirect_to'))));
  app.post('/invite', async (c) => {
    await auth.requireAdmin(token(c));
    return ok(await auth.invite(await body(c), query(c, 'redirect_to')));
  });
  app.post('/verify', async (c) => ok(await auth.verify(await body(c))));
  // The e-mailed link: always a redirect, with a session or GoTrue's error in the fragment.
  app.get(
    '/verify',
    getOnly(async (c) => new Response(null, { status: 303, headers: { Location: await auth.followLink(urlOf(c)) } })),
  );
  app.all('*', () => {
    throw authError(404, 'not_found', 'Not Found');
  });

  app.onError((err, c) => {
    const e = auth.asAuthError(err);
    if (!(e instanceof HttpError)) throw err;
    nodeRequest(c).resume();
    return jsonResponse(e.status, authErrorBody(nodeRequest(c), e), { ...AUTH_HEADERS, ...e.headers });
  });
  return app;
}
