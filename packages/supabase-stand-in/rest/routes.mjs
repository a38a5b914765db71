// @ts-check
// /rest/v1's route table, as PostgREST's (src/PostgREST/App.hs): the PostgREST subset, one module
// of this folder per concern (query grammar, read, write, rpc,
// errors). The API key is checked as Kong does; the caller's role comes from the bearer token (else
// the key), as PostgREST reads it. The context (database, withClaims, schema cache) is passed to
// each handler explicitly.
import { Hono } from 'hono';
import { bearerToken, HttpError, jsonResponse } from '../http.mjs';
import { JwtError, verifyJwt } from '../keys.mjs';
import { asRestError, restError } from './errors.mjs';
import { tableFor } from './context.mjs';
import { select } from './read.mjs';
import { callFunction, openApi } from './rpc.mjs';
import { insert, remove, update } from './write.mjs';
import { jsonReader, nodeRequest, requireApiKey, subPath, urlOf } from '../gateway/kong.mjs';

const API_ROLES = ['anon', 'authenticated', 'service_role'];

/**
 * @typedef {{ Bindings: import('@hono/node-server').HttpBindings,
 *   Variables: { claims: import('../db.mjs').Claims, url: URL, table: import('./schema-cache.mjs').Table } }} RestEnv
 */
/** @typedef {import('hono').Context<RestEnv>} Ctx */

/**
 * PostgREST's view of the caller: the bearer token, else the apikey; errors as PGRST301.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<import('../db.mjs').Claims>}
 */
export async function restClaims(req) {
  const token = bearerToken(req) ?? (typeof req.headers.apikey === 'string' ? req.headers.apikey : null);
  if (!token) return { role: 'anon' };
  let claims;
  try {
    claims = await verifyJwt(token);
  } catch (e) {
    const expired = e instanceof JwtError && e.reason === 'expired';
    throw new HttpError(
      401,
      {
        code: 'PGRST301',
        details: null,
        hint: null,
        message: expired ? 'JWT expired' : `JWSError: ${e instanceof Error ? e.message : 'invalid token'}`,
      },
      {
        'WWW-Authenticate': `Bearer error="invalid_token", error_description="${expired ? 'JWT expired' : 'JWSError'}"`,
      },
    );
  }
  if (!API_ROLES.includes(claims.role ?? 'anon')) {
    throw new HttpError(401, {
      code: 'PGRST301',
      details: null,
      hint: null,
      message: `role "${String(claims.role)}" is not allowed`,
    });
  }
  return claims;
}

/**
 * PostgREST's answer: the text with its media type (none for an empty body) and Content-Length,
 * which a HEAD answer keeps.
 * @param {import('./context.mjs').RestAnswer} out
 */
function answer(out) {
  const text = out.text ?? '';
  return new Response(text === '' ? null : text, {
    status: out.status,
    headers: {
      ...(out.type && text !== '' ? { 'Content-Type': out.type } : {}),
      ...out.headers,
      'Content-Length': String(Buffer.byteLength(text)),
    },
  });
}

/**
 * @param {import('./context.mjs').RestContext} rest
 */
export function restRoutes(rest) {
  /** @type {Hono<RestEnv>} */
  const app = new Hono();
  /** @param {Ctx} c */
  const body = (c) =>
    jsonReader(nodeRequest(c), {
      tooLarge: () => restError(413, 'PGRST413', 'Payload Too Large'),
      bad: () => restError(400, 'PGRST102', 'Empty or invalid json'),
    })();
  /** @param {Ctx} c */
  const args = (c) => /** @type {const} */ ([rest, nodeRequest(c), c.get('claims')]);

  app.use('*', async (c, next) => {
    await requireApiKey(nodeRequest(c), urlOf(c));
    c.set('claims', await restClaims(nodeRequest(c)));
    try {
      subPath(c, '/rest/v1').split('/').forEach(decodeURIComponent);
    } catch {
      throw restError(400, 'PGRST100', 'Invalid path specified in request URL: malformed percent-encoding');
    }
    await next();
  });

  app.all('/', () => answer(openApi()));

  app.on(['GET', 'POST'], '/rpc/:fn', async (c) => {
    const payload = c.req.method === 'POST' ? await body(c) : undefined;
    return answer(await callFunction(...args(c), c.req.param('fn'), urlOf(c), payload));
  });
  app.all('/rpc/:fn', () => {
    throw restError(405, 'PGRST101', 'Only GET, HEAD and POST are allowed for functions');
  });

  // Tables and views: the name must exist (a 404 otherwise, whatever the method) before the method counts.
  app.all('/:table', async (c, next) => {
    c.set('table', await tableFor(rest, nodeRequest(c), c.req.param('table')));
    await next();
  });
  app.get('/:table', async (c) => answer(await select(...args(c), c.get('table'), urlOf(c), c.req.method === 'HEAD')));
  app.post('/:table', async (c) => answer(await insert(...args(c), c.get('table'), urlOf(c), await body(c))));
  app.patch('/:table', async (c) => answer(await update(...args(c), c.get('table'), urlOf(c), await body(c))));
  app.delete('/:table', async (c) => answer(await remove(...args(c), c.get('table'), urlOf(c))));
  app.all('/:table', (c) => {
    throw restError(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`);
  });

  app.all('*', () => {
    throw restError(404, 'PGRST125', `Invalid path specified in request URL`);
  });

  app.onError((err, c) => {
    const e = asRestError(err, c.get('claims'));
    if (!(e instanceof HttpError)) throw err;
    nodeRequest(c).resume();
    return jsonResponse(e.status, e.body, e.headers);
  });
  return app;
}
