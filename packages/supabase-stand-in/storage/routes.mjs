// @ts-check
// /storage/v1's route table, as storage-api's (supabase/storage src/http/routes/object/index.ts,
// bucket/index.ts): the storage-api subset, one module of this folder per route group. Route
// groups in the order storage-api's routes resolve: buckets, signed upload URLs, public /
// authenticated / signed downloads, signing, list, info, copy and move, resumable uploads
// (src/http/routes/tus/index.ts), then objects by bucket and name. The context (database, how
// to act as the caller, the data directory) is passed to each handler.
import { Hono } from 'hono';
import { bearerToken, HttpError, jsonResponse } from '../http.mjs';
import { verifyJwt } from '../keys.mjs';
import { getBucket } from './buckets.mjs';
import { asStorageError, bucketOr404 } from './context.mjs';
import { joseMessage, storageError, tooLarge } from './errors.mjs';
import { objectInfo } from './info.mjs';
import { list } from './list.mjs';
import { removeMany, removeOne } from './objects-delete.mjs';
import { callerObject, objectResponse, publicObject, signedObject } from './objects-read.mjs';
import { uploadRoute } from './objects-write.mjs';
import { signMany, signOne } from './sign.mjs';
import { copy, move } from './transfer.mjs';
import { signUploadUrl, uploadSigned } from './upload-signed.mjs';
import { resumableUpload } from './resumable.mjs';
import { getOnly, jsonReader, nodeRequest, requireApiKey, subPath, urlOf } from '../gateway/kong.mjs';

/** @typedef {import('./context.mjs').StorageContext} StorageContext */
/** @typedef {import('../db.mjs').Claims} Claims */
/**
 * @typedef {{ Bindings: import('@hono/node-server').HttpBindings,
 *   Variables: { url: URL, claims: Claims | null, segs: string[] } }} Env
 */
/** @typedef {import('hono').Context<Env>} Ctx */
/** @typedef {Hono<Env>} App */

const API_ROLES = ['anon', 'authenticated', 'service_role'];

/**
 * The path's segments, each decoded (empty ones dropped); throws URIError on a bad escape.
 * @param {string} sub
 */
const segmentsOf = (sub) =>
  sub
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);

/**
 * The API gateway in front of storage lets through without a key only what browsers fetch
 * bare: public object downloads, signed-URL fetches and signed-URL uploads. Everything else needs an apikey
 * (verified like Kong, by requireApiKey) or, without one, an Authorization header (which
 * storage-api itself then checks, so it is not verified here).
 * @param {import('node:http').IncomingMessage} req
 * @param {URL} url
 * @param {string} sub
 */
async function requireStorageKey(req, url, sub) {
  /** @type {string[]} */
  let segs;
  try {
    segs = segmentsOf(sub);
  } catch {
    segs = [];
  }
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (read && segs[0] === 'object' && segs[1] === 'public') return;
  if (read && segs[0] === 'object' && segs[1] === 'sign' && url.searchParams.has('token')) return;
  // A signed upload URL is its own credential: PUT to it needs no key, as the token decides.
  const signedUpload = segs[0] === 'object' && segs[1] === 'upload' && segs[2] === 'sign';
  if (req.method === 'PUT' && signedUpload && url.searchParams.has('token')) return;
  if (!(req.headers.apikey ?? url.searchParams.get('apikey')) && req.headers.authorization) return;
  await requireApiKey(req, url);
}

/**
 * storage-api's view of the caller; null when no token was sent at all.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Claims | null>}
 */
async function storageClaims(req) {
  const token = bearerToken(req) ?? (typeof req.headers.apikey === 'string' ? req.headers.apikey : null);
  if (!token) return null;
  // src/http/plugins/jwt.ts: a token that does not verify is AccessDenied with jose's message
  // (src/internal/auth/jwt.ts verifyJWT); a role it does not serve, enforceJwtRole's words.
  try {
    const claims = await verifyJwt(token);
    if (!API_ROLES.includes(claims.role ?? 'anon'))
      throw storageError(403, 'AccessDenied', 'Access denied: Invalid role');
    return claims;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw storageError(403, 'AccessDenied', joseMessage(e));
  }
}

/** @param {unknown} body */
const ok = (body) => jsonResponse(200, body);
const req = nodeRequest;
/**
 * The path's segments after /storage/v1.
 * @param {Ctx} c
 */
const segs = (c) => c.get('segs');
/**
 * The bucket and object name from segment `at` on.
 * @param {Ctx} c
 * @param {number} at
 * @returns {[string, string]}
 */
const target = (c, at) => {
  const [bucketId, ...rest] = segs(c).slice(at);
  return [bucketId ?? '', rest.join('/')];
};
/**
 * The caller's claims; without any token, storage-api's 400 for a missing authorization header.
 * @param {Ctx} c
 * @returns {() => Claims}
 */
const caller = (c) => () => {
  const claims = c.get('claims');
  if (!claims) throw storageError(403, 'AccessDenied', "headers must have required property 'authorization'");
  return claims;
};
/**
 * The request headers a download answers to: Range, and the conditions that make it a 304.
 * @param {Ctx} c
 */
const downloadRequest = (c) => ({
  range: c.req.header('range'),
  ifNoneMatch: c.req.header('if-none-match'),
  ifModifiedSince: c.req.header('if-modified-since'),
});
/** @param {Ctx} c */
const readJson = (c) =>
  jsonReader(req(c), { tooLarge, bad: () => storageError(400, 'InvalidRequest', 'Body is not valid JSON') });

/**
 * Every request: the gateway's key check, the caller's claims and the decoded path.
 * @param {Ctx} c
 * @param {() => Promise<void>} next
 */
async function prepare(c, next) {
  const sub = subPath(c, '/storage/v1');
  await requireStorageKey(req(c), urlOf(c), sub);
  // Hosted Storage serves signed-URL uploads without its JWT check (the token is the credential),
  // and so the resumable endpoint's /sign routes (tus/index.ts: x-signature is the credential).
  const signedUpload =
    (c.req.method === 'PUT' && /^object\/upload\/sign\//.test(sub)) || /^upload\/resumable\/sign(\/|$)/.test(sub);
  // GET /object/info/:bucket/* takes a token that does not verify as no caller at all
  // (getObjectInfo.ts: allowInvalidJwt, src/http/plugins/jwt.ts).
  const allowInvalidJwt = c.req.method === 'GET' && /^object\/info\/(?!public\/|authenticated\/)/.test(sub);
  /** @type {Claims | null} */
  let claims = null;
  if (allowInvalidJwt) claims = await storageClaims(req(c)).catch(() => null);
  else if (!signedUpload) claims = await storageClaims(req(c));
  c.set('claims', claims);
  try {
    c.set('segs', segmentsOf(sub));
  } catch {
    throw storageError(400, 'InvalidKey', 'Invalid key');
  }
  await next();
}

/**
 * Buckets and signed upload URLs (POST signs one, PUT with the token uploads).
 * @param {App} app
 * @param {StorageContext} ctx
 */
function bucketAndUploadSignRoutes(app, ctx) {
  app.get(
    '/bucket/:id',
    getOnly(async (c) => ok(await getBucket(ctx, caller(c)(), segs(c)[1] ?? ''))),
  );
  const uploadSign = '/object/upload/sign/:bucket/*';
  /** @type {(handler: (c: Ctx) => Promise<Response>) => import('hono').MiddlewareHandler<Env>} */
  const withName = (handler) => async (c, next) => (segs(c).length >= 5 ? handler(c) : next());
  app.post(
    uploadSign,
    withName(async (c) => ok(await signUploadUrl(ctx, req(c), caller(c)(), ...target(c, 3)))),
  );
  app.put(
    uploadSign,
    withName(async (c) => ok(await uploadSigned(ctx, req(c), urlOf(c), ...target(c, 3)))),
  );
}

/**
 * Downloads (GET and HEAD), signed download URLs, list, info, copy and move.
 * @param {App} app
 * @param {StorageContext} ctx
 */
function readAndSignRoutes(app, ctx) {
  /** @type {(c: Ctx, bucketId: string, row: import('./context.mjs').ObjectRow) => Promise<Response>} */
  const download = (c, bucketId, row) => objectResponse(ctx, c.req.method, bucketId, row, urlOf(c), downloadRequest(c));
  app.get('/object/public/*', async (c) => download(c, target(c, 2)[0], await publicObject(ctx, ...target(c, 2))));
  app.get('/object/authenticated/*', async (c) =>
    download(c, target(c, 2)[0], await callerObject(ctx, caller(c), ...target(c, 2))),
  );
  // Signed download URLs: the bucket must exist whatever the method (other methods go on to the
  // object routes, with `sign` for a bucket name).
  app.all('/object/sign/*', async (c, next) => {
    await bucketOr404(ctx, target(c, 2)[0]);
    await next();
  });
  app.get('/object/sign/*', async (c) => {
    const token = urlOf(c).searchParams.get('token');
    const [bucketId, name] = target(c, 2);
    const signed = await signedObject(ctx, bucketId, name, token);
    return objectResponse(ctx, c.req.method, bucketId, signed.row, urlOf(c), {
      ...downloadRequest(c),
      expires: signed.expires,
    });
  });
  app.post('/object/sign/:bucket', async (c) => ok(await signMany(ctx, caller(c), target(c, 2)[0], readJson(c))));
  app.post('/object/sign/:bucket/*', async (c) => ok(await signOne(ctx, caller(c), ...target(c, 2), readJson(c))));
  app.post('/object/list/:bucket', async (c) =>
    ok(await list(ctx, caller(c)(), segs(c)[2] ?? '', await readJson(c)())),
  );
  /** @type {(answer: { body: unknown, headers: Record<string, string> }) => Response} */
  const infoResponse = ({ body, headers }) => jsonResponse(200, body, headers);
  // getObjectInfo.ts: the public route never has a caller; /info/authenticated needs one (its
  // headers schema requires authorization); /info/ takes one if it is there.
  app.get(
    '/object/info/public/*',
    getOnly(async (c) => infoResponse(await objectInfo(ctx, null, ...target(c, 3), { publicRoute: true }))),
  );
  app.get(
    '/object/info/authenticated/*',
    getOnly(async (c) => infoResponse(await objectInfo(ctx, caller(c)(), ...target(c, 3), { publicRoute: false }))),
  );
  app.get(
    '/object/info/*',
    getOnly(async (c) => infoResponse(await objectInfo(ctx, c.get('claims'), ...target(c, 2), { publicRoute: false }))),
  );
  app.post('/object/copy', async (c) => ok(await copy(ctx, req(c), caller(c)(), await readJson(c)())));
  app.post('/object/move', async (c) => ok(await move(ctx, caller(c)(), await readJson(c)())));
}

/**
 * Resumable (TUS) uploads, as storage-api registers them (src/http/routes/tus/index.ts): POST,
 * PUT, PATCH, HEAD and DELETE on /upload/resumable[/*], the same on /upload/resumable/sign[/*]
 * with x-signature instead of a caller. OPTIONS never gets here: the gateway answers it.
 * @param {App} app
 * @param {StorageContext} ctx
 */
function resumableRoutes(app, ctx) {
  /** @type {(signed: boolean) => import('hono').Handler<Env>} */
  const handle = (signed) => async (c) => {
    const claims = c.get('claims');
    // Storage's JWT check on the authenticated routes: no bearer token is jose's refusal of ''.
    if (!signed && !claims) throw storageError(403, 'AccessDenied', 'Invalid Compact JWS');
    const res = await resumableUpload(ctx, { req: req(c), url: urlOf(c), claims, signed });
    // The tus server's own exposed headers pass the gateway (resumable.mjs TUS_EXPOSED_HEADERS):
    // set on the context, as hono lays the gateway's CORS headers over a handler's answer.
    c.header('Access-Control-Expose-Headers', res.headers.get('access-control-expose-headers') ?? undefined);
    return res;
  };
  for (const [path, signed] of /** @type {const} */ ([
    ['/upload/resumable/sign', true],
    ['/upload/resumable/sign/*', true],
    ['/upload/resumable', false],
    ['/upload/resumable/*', false],
  ])) {
    app.on(['POST', 'PUT', 'PATCH', 'DELETE'], path, handle(signed));
    // hono routes HEAD as GET; a GET goes on to "route not found", as storage-api has none.
    app.get(path, (c, next) => (c.req.method === 'HEAD' ? handle(signed)(c, next) : next()));
  }
}

/**
 * Objects by bucket and name.
 * @param {App} app
 * @param {StorageContext} ctx
 */
function objectRoutes(app, ctx) {
  app.delete('/object/:bucket', async (c) =>
    ok(await removeMany(ctx, caller(c)(), target(c, 1)[0], await readJson(c)())),
  );
  app.on(['POST', 'PUT'], '/object/:bucket/*', async (c) =>
    ok(await uploadRoute(ctx, req(c), caller(c), ...target(c, 1))),
  );
  app.get('/object/:bucket/*', async (c) => {
    const [bucketId, name] = target(c, 1);
    const row = await callerObject(ctx, caller(c), bucketId, name);
    return objectResponse(ctx, c.req.method, bucketId, row, urlOf(c), downloadRequest(c));
  });
  app.delete('/object/:bucket/*', async (c) => ok(await removeOne(ctx, caller(c), ...target(c, 1))));
}

/**
 * @param {StorageContext} ctx
 */
export function storageRoutes(ctx) {
  /** @type {App} */
  const app = new Hono();
  app.use('*', prepare);
  bucketAndUploadSignRoutes(app, ctx);
  readAndSignRoutes(app, ctx);
  resumableRoutes(app, ctx);
  objectRoutes(app, ctx);
  // A route it does not have, not a storage error: the status is 404, the words those of
  // src/http/not-found-handler.ts setRestNotFoundHandler (the path as storage-api sees it, after
  // the gateway took off /storage/v1).
  app.all('*', (c) => {
    const raw = (req(c).url ?? '').replace(/^\/storage\/v1/, '');
    throw new HttpError(404, {
      statusCode: '404',
      error: 'Not Found',
      message: `Route ${c.req.method}:${raw} not found`,
      code: 'InvalidRequest',
    });
  });
  app.onError((err, c) => {
    const e = asStorageError(err);
    if (!(e instanceof HttpError)) throw err;
    req(c).resume();
    return jsonResponse(e.status, e.body, e.headers);
  });
  return app;
}
