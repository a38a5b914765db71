// The storage-api (/storage/v1) subset the app uses: upload (POST/PUT, multipart or raw,
// x-upsert), copy and move, bucket size and type limits, public and authenticated download,
// signed URLs, list and remove. As hosted Storage does, every request's transaction sets
// storage.operation to the route's operation; reads and deletes run as the caller, and a
// write is first tested as the caller against the row hosted Storage tests (an upload:
// metadata {mimetype, contentLength}; a copy: the source's metadata; a move: the source row
// renamed), rolled back, and then written for real by the storage admin. Bytes live on disk
// under the data directory, named by a hash of the object name so no name can reach outside it.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import {
  attachmentDisposition,
  headerValueOrNull,
  HttpError,
  jsonTooDeep,
  MAX_JSON_DEPTH,
  parseJson,
  readBody,
} from './http.mjs';
import { JwtError, signJwt, verifyJwt } from './keys.mjs';
import { MultipartError, readMultipartFile } from './multipart.mjs';
import { isBadInputPgError, isPgError } from './pg-errors.mjs';

/** storage-api's global upload cap (50 MB), before any bucket limit. */
export const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

/** A storage-api shaped error: `{ statusCode, error, message }`. */
export function storageError(status, error, message, statusCode = String(status)) {
  return new HttpError(status, { statusCode, error, message });
}

const notFound = () => storageError(404, 'not_found', 'Object not found');
const notFoundInBody = () => storageError(400, 'not_found', 'Object not found', '404');

/** storage.operation per route, as hosted Storage names them (src/http/routes/operations.ts). */
export const OPERATIONS = Object.freeze({
  upload: 'storage.object.upload',
  uploadUpdate: 'storage.object.upload_update',
  copy: 'storage.object.copy',
  move: 'storage.object.move',
  getAuthenticated: 'storage.object.get_authenticated',
  getAuthenticatedInfo: 'object.get_authenticated_info',
  sign: 'storage.object.sign',
  signMany: 'storage.object.sign_many',
  list: 'storage.object.list',
  delete: 'storage.object.delete',
  deleteMany: 'storage.object.delete_many',
  signUploadUrl: 'storage.object.sign_upload_url',
  uploadSigned: 'storage.object.upload_signed',
  getBucket: 'storage.bucket.get',
});

/** How long a signed upload URL lives: hosted Storage's default (UPLOAD_SIGNED_URL_EXPIRATION_TIME). */
export const UPLOAD_SIGNED_URL_EXPIRES_IN = 2 * 60 * 60;

/** Hosted Storage's NoSuchBucket as its error handler renders it: HTTP 400, statusCode '404'. */
const noSuchBucket = () =>
  new HttpError(400, {
    statusCode: '404',
    code: 'NoSuchBucket',
    error: 'Bucket not found',
    message: 'Bucket not found',
  });

/** The token's scope claim, or the legacy rule: a token with an `upsert` claim is an upload token. */
const isUploadToken = (p) => p.scope === 'upload' || (p.scope === undefined && 'upsert' in p);
const isDownloadToken = (p) => p.scope === 'download' || (p.scope === undefined && !('upsert' in p));

/** Thrown inside a permission test to roll it back; never leaves testPermission. */
const ROLLBACK = Symbol('rollback');

/** The owner hosted Storage records: the caller's user id when signed in. */
const ownerOf = (claims) => (claims?.role === 'authenticated' && typeof claims.sub === 'string' ? claims.sub : null);

const UPSERT_CONFLICT = `on conflict (bucket_id, name) do update set metadata = excluded.metadata,
  user_metadata = excluded.user_metadata, owner = excluded.owner, owner_id = excluded.owner_id,
  version = excluded.version, updated_at = now(), last_accessed_at = now()`;

/** An object row write (insert, or upsert), with $1..$6 = bucket, name, owner, metadata, user_metadata, version. */
const writeObjectSql = (upsert) =>
  `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
   values ($1, $2, $3::text::uuid, $3::text, $4::jsonb, $5::jsonb, $6) ${upsert ? UPSERT_CONFLICT : ''}
   returning id, name, bucket_id, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at`;
const BUCKET_RE = /^[A-Za-z0-9_.-]{1,100}$/;
// storage-api's key alphabet; on top of it this stand-in refuses empty, '.' and '..' segments.
const KEY_RE = /^(\w|\/|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)*$/u;

export function validateBucket(bucket) {
  if (!BUCKET_RE.test(bucket) || bucket === '.' || bucket === '..')
    throw storageError(400, 'InvalidBucketName', `Bucket name invalid`);
  return bucket;
}

export function validateKey(name) {
  const bad =
    !name ||
    name.length > 1024 ||
    !KEY_RE.test(name) ||
    name.startsWith('/') ||
    name.split('/').some((seg) => seg === '' || seg === '.' || seg === '..');
  if (bad) throw storageError(400, 'InvalidKey', `Invalid key: ${name}`);
  return name;
}

/** Where an object's bytes live: `<root>/<bucket>/<sha256(name)>`; never derived from raw input. */
export function objectFile(root, bucket, name) {
  return path.join(root, validateBucket(bucket), createHash('sha256').update(name).digest('hex'));
}

/** Whether `mime` matches a bucket's allowed list (entries may end in `/*`). */
export function mimeAllowed(mime, allowed) {
  if (!allowed || allowed.length === 0) return true;
  const base = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  return allowed.some((a) => {
    const rule = a.toLowerCase();
    return rule.endsWith('/*') ? base.startsWith(rule.slice(0, -1)) : base === rule;
  });
}

/**
 * @param {{ db: any, withClaims: Function, root: string }} deps  root: where the objects' bytes live
 */
export function createStorageService({ db, withClaims, root }) {
  async function bucketOr404(id) {
    validateBucket(id);
    const r = await db.query(
      `select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1`,
      [id],
    );
    if (!r.rows[0]) throw storageError(404, 'Bucket not found', 'Bucket not found');
    return r.rows[0];
  }

  /** Runs fn as the caller in one transaction that has storage.operation set, as hosted does. */
  async function asCaller(claims, operation, fn) {
    try {
      return await withClaims(db, claims, async (tx) => {
        await tx.query(`select set_config('storage.operation', $1, true)`, [operation]);
        return fn(tx);
      });
    } catch (err) {
      if (isPgError(err)) {
        if (err.code === '42501')
          throw storageError(
            403,
            'Unauthorized',
            err.message.includes('row-level security') ? 'new row violates row-level security policy' : err.message,
          );
        if (err.code === '23505') throw storageError(409, 'Duplicate', 'The resource already exists');
        if (isBadInputPgError(err) || err.code?.startsWith('23'))
          throw storageError(400, 'InvalidRequest', err.message);
        throw storageError(500, 'DatabaseError', err.message);
      }
      throw err;
    }
  }

  /** Runs fn as the caller and rolls it back: hosted Storage's testPermission. */
  async function testPermission(claims, operation, fn) {
    try {
      await asCaller(claims, operation, async (tx) => {
        await fn(tx);
        throw ROLLBACK;
      });
    } catch (err) {
      if (err !== ROLLBACK) throw err;
    }
  }

  /**
   * An object's bytes with storage-api's headers, streamed from disk (no body for HEAD).
   * @param {string} method  the request's method
   * @returns {Promise<Response>}
   */
  async function objectResponse(method, bucket, row, url) {
    const file = objectFile(root, bucket, row.name);
    let info;
    try {
      info = await stat(file);
    } catch {
      throw notFound();
    }
    const meta = row.metadata ?? {};
    // Stored values are checked at upload, but objects written before that check (or by other
    // means) may hold something Node refuses as a header value: such a value falls back to the
    // default instead of throwing half-way through the answer.
    /** @type {Record<string, string>} */
    const headers = {
      'Content-Type': headerValueOrNull(meta.mimetype) ?? 'application/octet-stream',
      'Content-Length': String(info.size),
      'Cache-Control': headerValueOrNull(meta.cacheControl) ?? 'no-cache',
      ETag: headerValueOrNull(meta.eTag) ?? `"${row.id}"`,
      'Last-Modified': new Date(row.updated_at ?? info.mtime).toUTCString(),
    };
    if (url.searchParams.has('download')) {
      const wanted = url.searchParams.get('download') || path.posix.basename(row.name);
      headers['Content-Disposition'] = attachmentDisposition(wanted);
    }
    if (method === 'HEAD') return new Response(null, { status: 200, headers });
    // Cancelling the web stream (the client went away) destroys the file stream.
    return new Response(ReadableStream.from(createReadStream(file)), { status: 200, headers });
  }

  /**
   * An upload. `owner` (default: the caller) is what the row records; a signed upload records
   * the owner named in its token while it is written by the service role.
   */
  async function upload(req, claims, bucketId, name, upsert, operation, owner = ownerOf(claims)) {
    const bucket = await bucketOr404(bucketId);
    validateKey(name);
    const limit = Math.min(
      GLOBAL_FILE_SIZE_LIMIT,
      bucket.file_size_limit ? Number(bucket.file_size_limit) : GLOBAL_FILE_SIZE_LIMIT,
    );
    const tooLarge = () => storageError(413, 'Payload too large', 'The object exceeded the maximum allowed size');
    const contentType = String(req.headers['content-type'] ?? 'application/octet-stream');
    // Hosted reads a body as multipart only when its type starts with exactly this (uploader.ts).
    const body = contentType.startsWith('multipart/form-data')
      ? await multipartBody(req, limit, tooLarge)
      : await rawBody(req, contentType, limit, tooLarge);
    const { mime, cacheControl, userMetadata } = body;
    const tmpDir = path.join(root, '.tmp');
    const tmp = path.join(tmpDir, randomBytes(12).toString('hex'));
    const version = randomBytes(16).toString('hex');
    const userMetadataJson = userMetadata == null ? null : JSON.stringify(userMetadata);
    try {
      // Both are sent back as response headers on every download: refuse what cannot be one
      // (control characters, non-ASCII) now, rather than store an object that cannot be served.
      if (headerValueOrNull(mime) === null)
        throw storageError(400, 'InvalidRequest', 'The content type has characters not allowed in an HTTP header');
      if (headerValueOrNull(cacheControl) === null)
        throw storageError(400, 'InvalidRequest', 'cacheControl has characters not allowed in an HTTP header');
      if (!mimeAllowed(mime, bucket.allowed_mime_types)) {
        throw storageError(415, 'invalid_mime_type', `mime type ${mime} is not supported`);
      }
      // The row hosted Storage tests before it takes the bytes: only mimetype and contentLength.
      await testPermission(claims, operation, (tx) =>
        tx.query(writeObjectSql(upsert), [
          bucketId,
          name,
          owner,
          JSON.stringify({ mimetype: mime, contentLength: body.contentLength }),
          userMetadataJson,
          '1',
        ]),
      );
    } catch (err) {
      body.discard();
      throw err;
    }
    try {
      await mkdir(tmpDir, { recursive: true });
      const { size, md5 } = await body.save(tmp);
      const metadata = {
        eTag: `"${md5}"`,
        size,
        mimetype: mime,
        cacheControl,
        lastModified: new Date().toISOString(),
        contentLength: size,
        httpStatusCode: 200,
      };
      const row = await db.transaction(async (tx) => {
        const r = await tx.query(writeObjectSql(true), [
          bucketId,
          name,
          owner,
          JSON.stringify(metadata),
          userMetadataJson,
          version,
        ]);
        const dest = objectFile(root, bucketId, name);
        await mkdir(path.dirname(dest), { recursive: true });
        await rename(tmp, dest);
        return r.rows[0];
      });
      return { Id: row.id, Key: `${bucketId}/${name}` };
    } catch (err) {
      body.discard();
      throw err;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /**
   * A raw upload: the whole body is the file, read into memory up to the limit; its type,
   * cache control and user metadata come from headers.
   */
  async function rawBody(req, contentType, limit, tooLarge) {
    const bytes = await readBody(req, limit, tooLarge);
    if (bytes.length > limit) throw tooLarge();
    return {
      mime: contentType,
      cacheControl: String(req.headers['cache-control'] ?? 'max-age=3600'),
      userMetadata: req.headers['x-metadata'] ? metadataHeader(req) : null,
      contentLength: bytes.length,
      discard: () => {},
      save: async (/** @type {string} */ file) => {
        await writeFile(file, bytes);
        return { size: bytes.length, md5: createHash('md5').update(bytes).digest('hex') };
      },
    };
  }

  /**
   * A multipart upload, read as hosted Storage reads it (uploader.ts fileUploadFromRequest): the
   * first file part is the file; of the fields sent before it, `contentType` overrides the
   * part's type, `cacheControl` gives `max-age=<value>` (else `no-cache`), and `metadata` (or
   * `userMetadata`) is JSON user metadata, ignored when it does not parse. The permission test
   * sees the request's Content-Length, framing included. The file streams to disk only after
   * that test, cut by busboy at the limit: a longer file is a 413 once its part has been read.
   */
  async function multipartBody(req, limit, tooLarge) {
    const asStorageError = (err) =>
      err instanceof MultipartError ? storageError(400, 'InvalidRequest', err.message) : err;
    let form;
    try {
      form = await readMultipartFile(req, req.headers, { fileSize: limit });
    } catch (err) {
      throw asStorageError(err);
    }
    if (!form) throw storageError(400, 'InvalidRequest', 'No content provided');
    const { fields } = form;
    const rawMetadata = fields.metadata ?? fields.userMetadata;
    let userMetadata = null;
    if (rawMetadata !== undefined) {
      if (jsonTooDeep(rawMetadata)) {
        form.discard();
        throw storageError(400, 'InvalidRequest', `metadata is nested more than ${MAX_JSON_DEPTH} levels deep`);
      }
      try {
        userMetadata = JSON.parse(rawMetadata);
      } catch {
        // Hosted ignores metadata that is not JSON.
      }
    }
    const declared = Number(req.headers['content-length']);
    return {
      mime: fields.contentType || form.mimeType,
      cacheControl: fields.cacheControl ? `max-age=${fields.cacheControl}` : 'no-cache',
      userMetadata,
      contentLength: Number.isFinite(declared) && declared >= 0 ? declared : undefined,
      discard: form.discard,
      save: async (/** @type {string} */ file) => {
        const hash = createHash('md5');
        let size = 0;
        const count = new Transform({
          transform(chunk, _encoding, done) {
            hash.update(chunk);
            size += chunk.length;
            done(null, chunk);
          },
        });
        try {
          await form.pipeTo(count, createWriteStream(file));
        } catch (err) {
          throw asStorageError(err);
        }
        if (form.truncated()) throw tooLarge();
        return { size, md5: hash.digest('hex') };
      },
    };
  }

  /** The user metadata a request sends base64-encoded in `x-metadata`, or null without one. */
  function metadataHeader(req) {
    if (!req.headers['x-metadata']) return null;
    return parseJson(
      Buffer.from(String(req.headers['x-metadata']), 'base64'),
      () => storageError(400, 'InvalidRequest', 'x-metadata is not JSON'),
      null,
      () => storageError(400, 'InvalidRequest', `x-metadata is nested more than ${MAX_JSON_DEPTH} levels deep`),
    );
  }

  /** The body copy and move share: both buckets must exist and both keys be valid. */
  async function transferRequest(body) {
    const b = body && typeof body === 'object' ? body : {};
    const str = (v) => (typeof v === 'string' ? v : null);
    const bucketId = str(b.bucketId);
    const sourceKey = str(b.sourceKey);
    const destinationKey = str(b.destinationKey);
    if (bucketId === null || sourceKey === null || destinationKey === null)
      throw storageError(
        400,
        'InvalidRequest',
        'body must have required properties bucketId, sourceKey, destinationKey',
      );
    const destinationBucket = str(b.destinationBucket) || bucketId;
    await bucketOr404(bucketId);
    await bucketOr404(destinationBucket);
    validateKey(sourceKey);
    validateKey(destinationKey);
    return { bucketId, sourceKey, destinationKey, destinationBucket };
  }

  /** POST /object/copy: hosted semantics (source read as the caller, destination tested with its metadata). */
  async function copy(req, claims, body) {
    const { bucketId, sourceKey, destinationKey, destinationBucket } = await transferRequest(body);
    const upsert = String(req.headers['x-upsert'] ?? '') === 'true';
    const source = await asCaller(claims, OPERATIONS.copy, async (tx) => {
      const r = await tx.query(
        `select metadata, user_metadata, version from storage.objects where bucket_id = $1 and name = $2`,
        [bucketId, sourceKey],
      );
      return r.rows[0] ?? null;
    });
    if (!source) throw notFoundInBody();
    const b = body && typeof body === 'object' ? body : {};
    const copyMetadata = b.copyMetadata !== false;
    const fileMetadata = b.metadata && typeof b.metadata === 'object' ? b.metadata : {};
    /** @type {Record<string, unknown>} */
    const metadata = { ...(source.metadata ?? {}) };
    if (!copyMetadata) {
      for (const key of ['cacheControl', 'mimetype']) {
        if (fileMetadata[key] === undefined) continue;
        if (typeof fileMetadata[key] !== 'string' || headerValueOrNull(fileMetadata[key]) === null)
          throw storageError(400, 'InvalidRequest', `metadata.${key} must be a string usable as an HTTP header`);
        metadata[key] = fileMetadata[key];
      }
    }
    let userMetadata = source.user_metadata ?? null;
    if (!copyMetadata) userMetadata = metadataHeader(req);
    const owner = ownerOf(claims);
    const userMetadataJson = userMetadata == null ? null : JSON.stringify(userMetadata);
    await testPermission(claims, OPERATIONS.copy, (tx) =>
      tx.query(writeObjectSql(upsert), [
        destinationBucket,
        destinationKey,
        owner,
        JSON.stringify(metadata),
        userMetadataJson,
        '1',
      ]),
    );
    const from = objectFile(root, bucketId, sourceKey);
    const to = objectFile(root, destinationBucket, destinationKey);
    const bytes = await readFile(from).catch(() => {
      throw notFoundInBody();
    });
    const row = await db.transaction(async (tx) => {
      const r = await tx.query(writeObjectSql(true), [
        destinationBucket,
        destinationKey,
        owner,
        JSON.stringify({ ...metadata, lastModified: new Date().toISOString() }),
        userMetadataJson,
        randomBytes(16).toString('hex'),
      ]);
      await mkdir(path.dirname(to), { recursive: true });
      await writeFile(to, bytes);
      return r.rows[0];
    });
    return { Id: row.id, Key: `${destinationBucket}/${destinationKey}`, ...row };
  }

  /** POST /object/move: the source row renamed, tested as the caller, then moved by the admin. */
  async function move(claims, body) {
    const { bucketId, sourceKey, destinationKey, destinationBucket } = await transferRequest(body);
    const owner = ownerOf(claims);
    const version = randomBytes(16).toString('hex');
    await testPermission(claims, OPERATIONS.move, async (tx) => {
      const found = await tx.query(`select id from storage.objects where bucket_id = $1 and name = $2`, [
        bucketId,
        sourceKey,
      ]);
      if (!found.rows[0]) throw notFoundInBody();
      const moved = await tx.query(
        `update storage.objects set name = $3, bucket_id = $4, version = $5, owner = $6::text::uuid, owner_id = $6::text
          where bucket_id = $1 and name = $2 returning id`,
        [bucketId, sourceKey, destinationKey, destinationBucket, version, owner],
      );
      if (!moved.rows[0]) throw notFoundInBody();
    });
    const from = objectFile(root, bucketId, sourceKey);
    const to = objectFile(root, destinationBucket, destinationKey);
    const row = await db.transaction(async (tx) => {
      const r = await tx.query(
        `update storage.objects set name = $3, bucket_id = $4, version = $5, owner = $6::text::uuid, owner_id = $6::text,
            updated_at = now()
          where bucket_id = $1 and name = $2 returning id, name`,
        [bucketId, sourceKey, destinationKey, destinationBucket, version, owner],
      );
      if (!r.rows[0]) throw notFoundInBody();
      if (from !== to) {
        await mkdir(path.dirname(to), { recursive: true });
        await rename(from, to);
      }
      return r.rows[0];
    });
    return { message: 'Successfully moved', Id: row.id, Key: row.name };
  }

  async function findAsCaller(claims, bucketId, name, operation = OPERATIONS.getAuthenticated) {
    return asCaller(claims, operation, async (tx) => {
      const r = await tx.query(
        `select id, name, metadata, updated_at from storage.objects where bucket_id = $1 and name = $2`,
        [bucketId, name],
      );
      return r.rows[0] ?? null;
    });
  }

  async function signToken(bucketId, name, expiresIn) {
    const seconds = Number(expiresIn);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw storageError(400, 'InvalidRequest', 'expiresIn must be a positive number');
    const now = Math.floor(Date.now() / 1000);
    return signJwt({ url: `${bucketId}/${name}`, iat: now, exp: now + Math.floor(seconds) });
  }

  /**
   * POST /object/upload/sign/:bucket/*: as hosted, the insert (or, with x-upsert, the upsert)
   * is tested as the caller now, with the metadata this request itself carries (its
   * Content-Type and Content-Length: supabase-js sends application/json and 2), and the token
   * records the owner, the path and upsert. Nothing is written.
   */
  async function signUploadUrl(req, claims, bucketId, name) {
    await bucketOr404(bucketId);
    validateKey(name);
    // The request's own body means nothing here; read it (bounded) and drop it.
    await readBody(req, 64 * 1024, () =>
      storageError(413, 'Payload too large', 'The object exceeded the maximum allowed size'),
    );
    const upsert = req.headers['x-upsert'] === 'true';
    const userMetadata = metadataHeader(req);
    const declaredLength = req.headers['content-length'];
    const metadata = {
      mimetype: req.headers['content-type'],
      contentLength: declaredLength === undefined ? undefined : Number(declaredLength),
    };
    const owner = ownerOf(claims);
    await testPermission(claims, OPERATIONS.signUploadUrl, (tx) =>
      tx.query(writeObjectSql(upsert), [
        bucketId,
        name,
        owner,
        JSON.stringify(metadata),
        userMetadata == null ? null : JSON.stringify(userMetadata),
        '1',
      ]),
    );
    const now = Math.floor(Date.now() / 1000);
    const url = `${bucketId}/${name}`;
    const token = await signJwt({
      owner: owner ?? undefined,
      url,
      upsert,
      scope: 'upload',
      iat: now,
      exp: now + UPLOAD_SIGNED_URL_EXPIRES_IN,
    });
    return { url: `/object/upload/sign/${url}?token=${token}`, token };
  }

  /**
   * PUT /object/upload/sign/:bucket/*?token=: no caller needed; the token must be an upload
   * token for exactly this path and unexpired. Hosted Storage then uploads as its super user
   * (no RLS; the policy was tested at signing), with the token's owner and upsert, and the
   * bucket's size and type limits applied as on any upload.
   */
  async function uploadSigned(req, url, bucketId, name) {
    await bucketOr404(bucketId);
    validateKey(name);
    const token = url.searchParams.get('token');
    if (!token) throw storageError(400, 'InvalidRequest', "querystring must have required property 'token'");
    let payload;
    try {
      payload = await verifyJwt(token);
    } catch (e) {
      const expired = e instanceof JwtError && e.reason === 'expired';
      throw storageError(
        400,
        'InvalidJWT',
        expired ? '"exp" claim timestamp check failed' : 'signature verification failed',
      );
    }
    if (!isUploadToken(payload)) throw storageError(400, 'InvalidSignature', 'Token is not scoped for upload');
    if (payload.url !== `${bucketId}/${name}`) throw storageError(400, 'InvalidSignature', 'Invalid signature');
    const owner = typeof payload.owner === 'string' ? payload.owner : null;
    const out = await upload(
      req,
      { role: 'service_role' },
      bucketId,
      name,
      payload.upsert === true,
      OPERATIONS.uploadSigned,
      owner,
    );
    return { Key: out.Key };
  }

  /** GET /bucket/:id, as the caller: storage.buckets has RLS and, on the platform, no policy. */
  async function getBucket(claims, id) {
    validateBucket(id);
    const row = await asCaller(claims, OPERATIONS.getBucket, async (tx) => {
      const r = await tx.query(
        `select id, name, owner, public, created_at, updated_at, file_size_limit, allowed_mime_types
           from storage.buckets where id = $1`,
        [id],
      );
      return r.rows[0] ?? null;
    });
    if (!row) throw noSuchBucket();
    return row;
  }

  async function list(claims, bucketId, body) {
    await bucketOr404(bucketId);
    const b = body && typeof body === 'object' ? body : {};
    let prefix = typeof b.prefix === 'string' ? b.prefix : '';
    if (prefix && !prefix.endsWith('/')) prefix += '/';
    const search = typeof b.search === 'string' ? b.search : '';
    const limit = Math.max(0, Math.min(1000, Number(b.limit ?? 100) || 100));
    const offset = Math.max(0, Number(b.offset ?? 0) || 0);
    const column = ['name', 'updated_at', 'created_at', 'last_accessed_at'].includes(b.sortBy?.column)
      ? b.sortBy.column
      : 'name';
    const order = String(b.sortBy?.order ?? 'asc').toLowerCase() === 'desc' ? -1 : 1;
    const rows = await asCaller(claims, OPERATIONS.list, async (tx) => {
      const r = await tx.query(
        `select id, name, updated_at, created_at, last_accessed_at, metadata from storage.objects
          where bucket_id = $1 and left(name, length($2)) = $2`,
        [bucketId, prefix],
      );
      return r.rows;
    });
    /** @type {Map<string, any>} */
    const entries = new Map();
    const iso = (v) => (v ? new Date(v).toISOString() : null);
    for (const row of rows) {
      const rest = row.name.slice(prefix.length);
      const slash = rest.indexOf('/');
      const entryName = slash >= 0 ? rest.slice(0, slash) : rest;
      if (!entryName.toLowerCase().startsWith(search.toLowerCase())) continue;
      if (slash >= 0) {
        if (!entries.has(`d:${entryName}`)) {
          entries.set(`d:${entryName}`, {
            name: entryName,
            id: null,
            updated_at: null,
            created_at: null,
            last_accessed_at: null,
            metadata: null,
          });
        }
      } else {
        entries.set(`f:${entryName}`, {
          name: entryName,
          id: row.id,
          updated_at: iso(row.updated_at),
          created_at: iso(row.created_at),
          last_accessed_at: iso(row.last_accessed_at),
          metadata: row.metadata,
        });
      }
    }
    const sorted = [...entries.values()].sort((x, y) => {
      const a = x[column] ?? '';
      const c = y[column] ?? '';
      if (a === c) return x.name < y.name ? -1 : x.name > y.name ? 1 : 0;
      return (a < c ? -1 : 1) * order;
    });
    return sorted.slice(offset, offset + limit);
  }

  async function removeMany(claims, bucketId, body, operation = OPERATIONS.deleteMany) {
    await bucketOr404(bucketId);
    const prefixes = Array.isArray(body?.prefixes) ? body.prefixes.filter((p) => typeof p === 'string') : null;
    if (!prefixes) throw storageError(400, 'InvalidRequest', 'body must have required property prefixes');
    if (prefixes.length === 0) return [];
    const rows = await asCaller(claims, operation, async (tx) => {
      const r = await tx.query(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
          returning id, name, bucket_id, owner, updated_at, created_at, last_accessed_at, metadata`,
        [bucketId, prefixes],
      );
      return r.rows;
    });
    await Promise.all(rows.map((row) => rm(objectFile(root, bucketId, row.name), { force: true })));
    return rows;
  }

  /** Postgres refusing the data itself (outside asCaller, which maps its own) is the client's error, not a 500. */
  function asStorageError(err) {
    if (isBadInputPgError(err)) return storageError(400, 'InvalidRequest', /** @type {Error} */ (err).message);
    return err;
  }

  /** GET /object/public/:bucket/*: any object of a public bucket, no caller needed. */
  async function publicObject(bucketId, name) {
    const bucket = await bucketOr404(bucketId);
    validateKey(name);
    if (!bucket.public) throw storageError(400, 'not_found', 'Object not found', '404');
    const r = await db.query(
      `select id, name, metadata, updated_at from storage.objects where bucket_id = $1 and name = $2`,
      [bucket.id, name],
    );
    if (!r.rows[0]) throw notFound();
    return r.rows[0];
  }

  // The endpoints below take the caller as `caller()`, called where storage-api checks for one
  // (after the bucket and key, say), so a request wrong in several ways gets the same error first.

  /** GET /object/authenticated/:bucket/* and GET /object/:bucket/*: the object, read as the caller. */
  async function callerObject(caller, bucketId, name) {
    await bucketOr404(bucketId);
    validateKey(name);
    const row = await findAsCaller(caller(), bucketId, name);
    if (!row) throw notFound();
    return row;
  }

  /** GET /object/sign/:bucket/*?token=: the object a download token names, no caller needed. */
  async function signedObject(bucketId, name, token) {
    validateKey(name);
    if (!token) throw storageError(400, 'InvalidSignature', "querystring must have required property 'token'", '400');
    let payload;
    try {
      payload = await verifyJwt(token);
    } catch (e) {
      const msg = e instanceof JwtError && e.reason === 'expired' ? 'jwt expired' : 'invalid signature';
      throw storageError(400, 'InvalidJWT', msg, '400');
    }
    if (!isDownloadToken(payload))
      throw storageError(400, 'InvalidSignature', 'Token is not scoped for download', '400');
    if (payload.url !== `${bucketId}/${name}`)
      throw storageError(400, 'InvalidSignature', 'The url do not match the signature', '400');
    const r = await db.query(
      `select id, name, metadata, updated_at from storage.objects where bucket_id = $1 and name = $2`,
      [bucketId, name],
    );
    if (!r.rows[0]) throw notFound();
    return r.rows[0];
  }

  /** POST /object/sign/:bucket: signed URLs for the `paths` the caller may read; an error entry for the rest. */
  async function signMany(caller, bucketId, readJson) {
    const b = /** @type {any} */ (await readJson());
    const paths = Array.isArray(b?.paths) ? b.paths.filter((p) => typeof p === 'string') : null;
    if (!paths) throw storageError(400, 'InvalidRequest', 'body must have required property paths');
    const visible = await asCaller(caller(), OPERATIONS.signMany, async (tx) => {
      const r = await tx.query(`select name from storage.objects where bucket_id = $1 and name = any($2::text[])`, [
        bucketId,
        paths,
      ]);
      return new Set(r.rows.map((x) => x.name));
    });
    return Promise.all(
      paths.map(async (p) =>
        visible.has(p)
          ? {
              error: null,
              path: p,
              signedURL: `/object/sign/${bucketId}/${p}?token=${await signToken(bucketId, p, b.expiresIn)}`,
            }
          : {
              error: 'Either the object does not exist or you do not have access to it',
              path: p,
              signedURL: null,
            },
      ),
    );
  }

  /** POST /object/sign/:bucket/*: a signed URL for an object the caller may read. */
  async function signOne(caller, bucketId, name, readJson) {
    validateKey(name);
    const b = /** @type {any} */ (await readJson());
    const row = await findAsCaller(caller(), bucketId, name, OPERATIONS.sign);
    if (!row) throw notFoundInBody();
    return { signedURL: `/object/sign/${bucketId}/${name}?token=${await signToken(bucketId, name, b?.expiresIn)}` };
  }

  /**
   * GET /object/info/public/:bucket/* (storage src/http/routes/object/getObjectInfo.ts, a public
   * route: no caller is ever authenticated there). A bucket that is missing or not public is
   * NoSuchBucket, so the answer tells a private bucket from a public one without naming an object;
   * otherwise the object's row, read as the superuser, or NoSuchKey.
   */
  async function publicInfo(bucketId, name) {
    validateBucket(bucketId);
    const r = await db.query(`select public from storage.buckets where id = $1`, [bucketId]);
    if (!r.rows[0]?.public) throw noSuchBucket();
    validateKey(name);
    const row = await db.query(
      `select id, metadata, updated_at from storage.objects where bucket_id = $1 and name = $2`,
      [bucketId, name],
    );
    if (!row.rows[0]) throw notFoundInBody();
    const { id, metadata, updated_at } = row.rows[0];
    return { id, name, bucket_id: bucketId, metadata, updated_at };
  }

  /** GET /object/info/:bucket/*: the object's row, read as the caller. */
  async function info(caller, bucketId, name) {
    await bucketOr404(bucketId);
    validateKey(name);
    const row = await findAsCaller(caller(), bucketId, name, OPERATIONS.getAuthenticatedInfo);
    if (!row) throw notFound();
    return { id: row.id, name, bucket_id: bucketId, metadata: row.metadata, updated_at: row.updated_at };
  }

  /**
   * POST (create, or upsert with x-upsert) and PUT (update: the object must exist and be
   * visible to the caller) /object/:bucket/*.
   */
  async function uploadRoute(req, caller, bucketId, name) {
    const method = req.method;
    const upsert = method === 'PUT' || String(req.headers['x-upsert'] ?? '').toLowerCase() === 'true';
    if (method === 'PUT') {
      validateKey(name);
      await bucketOr404(bucketId);
      if (!(await findAsCaller(caller(), bucketId, name, OPERATIONS.uploadUpdate))) throw notFound();
    }
    const operation = method === 'PUT' ? OPERATIONS.uploadUpdate : OPERATIONS.upload;
    return upload(req, caller(), bucketId, name, upsert, operation);
  }

  /** DELETE /object/:bucket/*: one object. */
  async function removeOne(caller, bucketId, name) {
    validateKey(name);
    const rows = await removeMany(caller(), bucketId, { prefixes: [name] }, OPERATIONS.delete);
    if (rows.length === 0) throw notFound();
    return { message: 'Successfully deleted' };
  }

  return {
    asStorageError,
    bucketOr404,
    objectResponse,
    publicObject,
    publicInfo,
    callerObject,
    signedObject,
    signMany,
    signOne,
    info,
    list,
    copy,
    move,
    getBucket,
    signUploadUrl,
    uploadSigned,
    uploadRoute,
    removeMany,
    removeOne,
  };
}
