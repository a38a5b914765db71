// /storage/v1: the storage-api subset (storage.mjs holds the endpoints). Route groups in the
// order storage-api's routes resolve: buckets, signed upload URLs, public / authenticated /
// signed downloads, signing, list, info, copy and move, then objects by bucket and name.
import { Hono } from 'hono';
import { bearerToken, HttpError, jsonResponse } from '../http.mjs';
import { JwtError, verifyJwt } from '../keys.mjs';
import { storageError } from '../storage.mjs';
import { getOnly, jsonReader, nodeRequest, requireApiKey, subPath, urlOf } from './gateway.mjs';

const API_ROLES = ['anon', 'authenticated', 'service_role'];

/**
 * The API gateway in front of storage lets through without a key only what browsers fetch
 * bare: public object downloads, signed-URL fetches and signed-URL uploads. Everything else needs an apikey
 * (verified like Kong, by requireApiKey) or, without one, an Authorization header (which
 * storage-api itself then checks, so it is not verified here).
 */
async function requireStorageKey(req, url, sub) {
  let segs;
  try {
    segs = sub
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
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

/** storage-api's view of the caller; null when no token was sent at all. */
async function storageClaims(req) {
  const token = bearerToken(req) ?? (typeof req.headers.apikey === 'string' ? req.headers.apikey : null);
  if (!token) return null;
  try {
    const claims = await verifyJwt(token);
    if (!API_ROLES.includes(claims.role ?? 'anon')) throw storageError(400, 'InvalidJWT', 'invalid role', '403');
    return claims;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const expired = e instanceof JwtError && e.reason === 'expired';
    throw storageError(
      400,
      'InvalidJWT',
      expired
        ? 'jwt expired'
        : e instanceof JwtError && e.reason === 'signature'
          ? 'invalid signature'
          : 'jwt malformed',
      expired ? '400' : '403',
    );
  }
}

/**
 * @param {ReturnType<typeof import('../storage.mjs').createStorageService>} storage
 */
export function storageRoutes(storage) {
  /** @type {Hono<{ Bindings: import('@hono/node-server').HttpBindings, Variables: { url: URL, claims: any, segs: string[] } }>} */
  const app = new Hono();
  const ok = (body) => jsonResponse(200, body);
  const req = nodeRequest;
  /** The path's segments after /storage/v1, each decoded (empty ones dropped). */
  const segs = (c) => c.get('segs');
  /** The bucket and object name from segment `at` on. */
  const target = (c, at) => {
    const [bucketId, ...rest] = segs(c).slice(at);
    return /** @type {const} */ ([bucketId ?? '', rest.join('/')]);
  };
  /** The caller's claims; without any token, storage-api's 400 for a missing authorization header. */
  const caller = (c) => () => {
    const claims = c.get('claims');
    if (!claims) throw storageError(400, 'Unauthorized', "headers must have required property 'authorization'", '403');
    return claims;
  };
  const readJson = (c) =>
    jsonReader(req(c), {
      tooLarge: () => storageError(413, 'Payload too large', 'The object exceeded the maximum allowed size'),
      bad: () => storageError(400, 'InvalidRequest', 'Body is not valid JSON'),
    });
  const download = async (c, bucketId, row) => storage.objectResponse(c.req.method, bucketId, row, urlOf(c));

  app.use('*', async (c, next) => {
    const sub = subPath(c, '/storage/v1');
    await requireStorageKey(req(c), urlOf(c), sub);
    // Hosted Storage serves signed-URL uploads without its JWT check (the token is the credential).
    const signedUpload = c.req.method === 'PUT' && /^object\/upload\/sign\//.test(sub);
    c.set('claims', signedUpload ? null : await storageClaims(req(c)));
    try {
      c.set(
        'segs',
        sub
          .split('/')
          .filter((s) => s !== '')
          .map(decodeURIComponent),
      );
    } catch {
      throw storageError(400, 'InvalidKey', 'Invalid key');
    }
    await next();
  });

  // Buckets
  app.get(
    '/bucket/:id',
    getOnly(async (c) => ok(await storage.getBucket(caller(c)(), /** @type {string} */ (segs(c)[1])))),
  );

  // Signed upload URLs: POST signs one, PUT with the token uploads.
  const uploadSign = '/object/upload/sign/:bucket/*';
  const withName = (handler) => (c, next) => (segs(c).length >= 5 ? handler(c) : next());
  app.post(
    uploadSign,
    withName(async (c) => ok(await storage.signUploadUrl(req(c), caller(c)(), ...target(c, 3)))),
  );
  app.put(
    uploadSign,
    withName(async (c) => ok(await storage.uploadSigned(req(c), urlOf(c), ...target(c, 3)))),
  );

  // Downloads (GET and HEAD)
  app.get('/object/public/*', async (c) => {
    const [bucketId, name] = target(c, 2);
    const row = await storage.publicObject(bucketId, name);
    return download(c, bucketId, row);
  });
  app.get('/object/authenticated/*', async (c) => {
    const [bucketId, name] = target(c, 2);
    return download(c, bucketId, await storage.callerObject(caller(c), bucketId, name));
  });

  // Signed download URLs: the bucket must exist whatever the method (other methods go on to the
  // object routes, with `sign` for a bucket name).
  app.all('/object/sign/*', async (c, next) => {
    await storage.bucketOr404(target(c, 2)[0]);
    await next();
  });
  app.get('/object/sign/*', async (c) => {
    const [bucketId, name] = target(c, 2);
    return download(c, bucketId, await storage.signedObject(bucketId, name, urlOf(c).searchParams.get('token')));
  });
  app.post('/object/sign/:bucket', async (c) => ok(await storage.signMany(caller(c), target(c, 2)[0], readJson(c))));
  app.post('/object/sign/:bucket/*', async (c) => ok(await storage.signOne(caller(c), ...target(c, 2), readJson(c))));

  app.post('/object/list/:bucket', async (c) =>
    ok(await storage.list(caller(c)(), /** @type {string} */ (segs(c)[2]), await readJson(c)())),
  );
  app.get(
    '/object/info/public/*',
    getOnly(async (c) => ok(await storage.publicInfo(...target(c, 3)))),
  );
  app.get(
    '/object/info/*',
    getOnly(async (c) => ok(await storage.info(caller(c), ...target(c, 2)))),
  );
  app.post('/object/copy', async (c) => ok(await storage.copy(req(c), caller(c)(), await readJson(c)())));
  app.post('/object/move', async (c) => ok(await storage.move(caller(c)(), await readJson(c)())));

  // Objects by bucket and name
  app.delete('/object/:bucket', async (c) =>
    ok(await storage.removeMany(caller(c)(), target(c, 1)[0], await readJson(c)())),
  );
  app.on(['POST', 'PUT'], '/object/:bucket/*', async (c) =>
    ok(await storage.uploadRoute(req(c), caller(c), ...target(c, 1))),
  );
  app.get('/object/:bucket/*', async (c) => {
    const [bucketId, name] = target(c, 1);
    return download(c, bucketId, await storage.callerObject(caller(c), bucketId, name));
  });
  app.delete('/object/:bucket/*', async (c) => ok(await storage.removeOne(caller(c), ...target(c, 1))));

  app.all('*', () => {
    throw storageError(404, 'not_found', 'Route not found');
  });

  app.onError((err, c) => {
    const e = storage.asStorageError(err);
    if (!(e instanceof HttpError)) throw err;
    req(c).resume();
    return jsonResponse(e.status, e.body, e.headers);
  });
  return app;
}
