// @ts-check
// Resumable uploads, TUS 1.0.0, at /storage/v1/upload/resumable[/sign][/<upload id>], as hosted
// Storage serves them. Follows supabase/storage src/http/routes/tus/index.ts (the routes, the
// size limit; OPTIONS is the gateway's, as every preflight) and lifecycle.ts (the upload id in the URL, the
// permission test on every request but HEAD, the bucket's types at creation, the object written
// when the last byte arrives), src/storage/protocols/tus/upload-id.ts and postgres-locker.ts;
// and the tus server it runs, @tus/server 2.4.2 (server.ts, validators/HeaderValidator.ts,
// handlers/BaseHandler.ts, PostHandler.ts, PatchHandler.ts, HeadHandler.ts, DeleteHandler.ts),
// @tus/utils (constants.ts: the errors and their words; models/Metadata.ts, StreamLimiter.ts) and
// @tus/s3-store (hosted's store: the bytes of a PATCH cut off are kept, and a finished upload
// still answers HEAD with its full length).
//
// Errors are the tus server's: plain text with their own HTTP status (a storage error, such as
// an RLS refusal, is sent as its status and message: lifecycle.ts onResponseError). Incomplete
// uploads live in the storage folder under `#resumable` (not a valid bucket name): the bytes so
// far, and beside them a JSON record of the upload.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { headerValueOrNull, HttpError } from '../http.mjs';
import { bucketOr404, OPERATIONS, ownerOf, uploadLimit } from './context.mjs';
import { storageError } from './errors.mjs';
import { validateBucket, validateKey } from './names.mjs';
import { canUpload, storeUpload } from './objects-write.mjs';
import { verifyUploadToken } from './upload-signed.mjs';

/** @typedef {import('./context.mjs').StorageContext} StorageContext */
/** @typedef {import('./context.mjs').Claims} Claims */
/**
 * One request to the endpoint: the caller (none on the signed routes), and whether it came by
 * /upload/resumable/sign, where the x-signature header is the credential.
 * @typedef {{ req: import('node:http').IncomingMessage, url: URL, claims: Claims | null, signed: boolean }} TusCall
 */
/** @typedef {{ bucket: string, name: string, version: string, id: string }} UploadId */
/**
 * An upload as the store keeps it (Upload of @tus/utils): size null while deferred; `completed`
 * once its object was written.
 * @typedef {{ id: string, size: number | null, metadata: Record<string, string | null>,
 *   creation_date: string, completed?: boolean }} UploadInfo
 */
/** @typedef {UploadInfo & { offset: number }} UploadState */

const TUS_VERSION = '1.0.0';
const TUS_PATH = '/upload/resumable';
/** Hosted's upload URLs are valid for up to 24 hours (TUS_URL_EXPIRY_MS; docs "Resumable Uploads"). */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;
/** How long a request keeps writing after another asked for its lock (@tus/server lockDrainTimeout). */
const LOCK_DRAIN_MS = 3000;
/** How long a request waits for a lock before 503 (postgres-locker.ts). */
const LOCK_WAIT_MS = 5000;
/**
 * @tus/utils HEADERS, which the tus server exposes on every answer past its header checks, as
 * `[...HEADERS, exposedHeaders ?? []].join(', ')`: storage sets no exposedHeaders, so the list
 * ends in a separator (`, `, which reaches clients as `,`: a header value's trailing space is
 * not part of it). The gateway passes it on: Kong's cors plugin sets its own only when it is
 * configured with exposed_headers, and supabase's kong.yml configures none. Upload-Expires and
 * Tus-Complete are not in it, so a browser cannot read them.
 */
export const TUS_EXPOSED_HEADERS = `${[
  'Authorization',
  'Content-Type',
  'Location',
  'Tus-Extension',
  'Tus-Max-Size',
  'Tus-Resumable',
  'Tus-Version',
  'Upload-Concat',
  'Upload-Defer-Length',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Offset',
  'X-HTTP-Method-Override',
  'X-Requested-With',
  'X-Forwarded-Host',
  'X-Forwarded-Proto',
  'Forwarded',
].join(', ')},`;

/** A tus server error: its status and its plain-text body. */
class TusError extends Error {
  /**
   * @param {number} status
   * @param {string} body
   */
  constructor(status, body) {
    super(body);
    this.status = status;
    this.body = body;
    /** The tus server aborts the request's context: the answer says Connection: close. */
    this.close = false;
  }
}

/** @tus/utils ERRORS, in their words. */
const TUS_ERRORS = /** @type {const} */ ({
  MISSING_OFFSET: [403, 'Upload-Offset header required\n'],
  INVALID_TERMINATION: [400, 'Cannot terminate an already completed upload'],
  INVALID_CONTENT_TYPE: [403, 'Content-Type header required\n'],
  FILE_NOT_FOUND: [404, 'The file for this url was not found\n'],
  INVALID_OFFSET: [409, 'Upload-Offset conflict\n'],
  FILE_NO_LONGER_EXISTS: [410, 'The file for this url no longer exists\n'],
  ERR_SIZE_EXCEEDED: [413, "upload's size exceeded\n"],
  ERR_MAX_SIZE_EXCEEDED: [413, 'Maximum size exceeded\n'],
  INVALID_LENGTH: [400, 'Upload-Length or Upload-Defer-Length header required\n'],
  INVALID_METADATA: [
    400,
    'Upload-Metadata is invalid. It MUST consist of one or more comma-separated key-value pairs. The key and value MUST be separated by a space. The key MUST NOT contain spaces and commas and MUST NOT be empty. The key SHOULD be ASCII encoded and the value MUST be Base64 encoded. All keys MUST be unique',
  ],
  UNSUPPORTED_CONCATENATION: [
    501,
    'Concatenation extension is not (yet) supported. Disable parallel uploads in the tus client.\n',
  ],
});

/** @param {keyof typeof TUS_ERRORS} key */
const tusError = (key) => {
  const [status, body] = TUS_ERRORS[key];
  return new TusError(status, body);
};

/**
 * The answer an error gets: a tus error as it is; a storage error as its own status and message
 * (lifecycle.ts getTusError); anything else as the tus server's unknown error.
 * @param {unknown} err
 */
function asTusError(err) {
  if (err instanceof TusError) return err;
  const body = err instanceof HttpError ? /** @type {{ statusCode?: unknown, message?: unknown }} */ (err.body) : null;
  if (body && typeof body.statusCode === 'string' && typeof body.message === 'string')
    return new TusError(Number(body.statusCode), body.message);
  const message = err instanceof Error ? err.message : '';
  return new TusError(500, `Something went wrong with that request\n${message}\n`);
}

/**
 * @param {number} status
 * @param {Record<string, string>} headers
 * @param {string} [body]
 */
const reply = (status, headers, body = '') => new Response(status === 204 ? null : body, { status, headers });

/**
 * A request header's value, or null.
 * @param {import('node:http').IncomingMessage} req
 * @param {string} name  lower case
 */
function header(req, name) {
  const v = req.headers[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

// ---------------------------------------------------------------------------------------------
// The protocol's headers (HeaderValidator.ts, Metadata.ts)

/** @param {string | undefined} v */
const nonNegativeInteger = (v) => {
  const n = Number(v);
  return Number.isInteger(n) && String(n) === v && n >= 0;
};

/**
 * Upload-Metadata: comma-separated `key base64value` pairs (or a lone key), keys unique.
 * @param {string} str
 * @returns {Record<string, string | null>}
 */
export function parseMetadata(str) {
  /** @type {Record<string, string | null>} */
  const meta = {};
  if (str.trim().length === 0) throw new Error('Metadata string is not valid');
  for (const pair of str.split(',')) {
    const tokens = pair.split(' ');
    const [key = '', value] = tokens;
    const keyOk = key.length > 0 && ![...key].some((ch) => ch.charCodeAt(0) > 127 || ch === ' ' || ch === ',');
    const valueOk = value === undefined || (value.length % 4 === 0 && /^[\d+/A-Za-z]*={0,2}$/.test(value));
    // `in`, as Metadata.ts has it: a key an object already has (toString, __proto__, …) is refused too.
    if (!keyOk || tokens.length > 2 || !valueOk || key in meta) throw new Error('Metadata string is not valid');
    meta[key] = value ? Buffer.from(value, 'base64').toString('utf8') : null;
  }
  return meta;
}

/** @param {Record<string, string | null>} metadata */
const stringifyMetadata = (metadata) =>
  Object.entries(metadata)
    .map(([key, value]) => (value === null ? key : `${key} ${Buffer.from(value, 'utf8').toString('base64')}`))
    .join(',');

/** @type {Readonly<Record<string, (value: string, method: string) => boolean>>} */
const VALIDATORS = Object.freeze({
  'upload-offset': nonNegativeInteger,
  'upload-length': nonNegativeInteger,
  'upload-defer-length': (v) => v === '1',
  'upload-metadata': (v) => {
    try {
      parseMetadata(v);
      return true;
    } catch {
      return false;
    }
  },
  'x-forwarded-proto': (v) => v === 'http' || v === 'https',
  'tus-version': (v) => v === TUS_VERSION,
  'tus-resumable': (v) => v === TUS_VERSION,
  // Only a PATCH's type is checked (server.ts: clients may send a default type elsewhere).
  'content-type': (v, method) => method !== 'PATCH' || v === 'application/offset+octet-stream',
  'upload-concat': (v) => v === 'partial' || v.startsWith('final;'),
});

/**
 * The names of the headers whose values the protocol refuses, in the order Headers lists them.
 * @param {import('node:http').IncomingMessage} req
 */
function invalidHeaders(req) {
  const method = req.method ?? '';
  return Object.keys(req.headers)
    .sort()
    .filter((name) => {
      const check = VALIDATORS[name];
      return check !== undefined && !check(header(req, name) ?? '', method);
    });
}

// ---------------------------------------------------------------------------------------------
// Upload ids (upload-id.ts; lifecycle.ts namingFunction, generateUrl, getFileIdFromRequest)

/**
 * `bucket/name/version`, checked as UploadId's constructor checks it.
 * @param {string} bucket
 * @param {string} name
 * @param {string | undefined} version
 * @returns {UploadId}
 */
function uploadId(bucket, name, version) {
  if (!version) throw storageError(400, 'InvalidUploadId', 'Version not provided');
  validateBucket(bucket);
  validateKey(name);
  return { bucket, name, version, id: `${bucket}/${name}/${version}` };
}

/**
 * The URL's last segment as sent, base64url-decoded (getFileIdFromRequest); a segment that is
 * part of the endpoint's own path names no upload.
 * @param {URL} url
 */
function fileIdOf(url) {
  const last = url.pathname.split('/').filter(Boolean).at(-1) ?? '';
  if (TUS_PATH.includes(last)) throw tusError('FILE_NOT_FOUND');
  return Buffer.from(last, 'base64url').toString('utf8');
}

/**
 * UploadId.fromString: hosted prefixes the tenant, so fewer than two parts is no id.
 * @param {string} decoded
 */
function parseUploadId(decoded) {
  const parts = decoded.split('/');
  if (parts.length < 2) throw storageError(400, 'InvalidUploadId', 'Invalid upload id');
  const [bucket = '', ...rest] = parts;
  const version = rest.pop();
  return uploadId(bucket, rest.join('/'), version);
}

/**
 * The upload's URL: the endpoint's (with /sign when it was created there) and the id.
 * @param {TusCall} call
 * @param {UploadId} uid
 */
function locationOf(call, uid) {
  const host = header(call.req, 'host') ?? call.url.host;
  const sign = call.url.pathname.endsWith('/sign') ? '/sign' : '';
  return `http://${host}/storage/v1${TUS_PATH}${sign}/${Buffer.from(uid.id, 'utf8').toString('base64url')}`;
}

// ---------------------------------------------------------------------------------------------
// The store: bytes and record on disk (file-store.ts)

/** @param {StorageContext} ctx */
const storeDir = (ctx) => path.join(ctx.root, '#resumable');

/**
 * @param {StorageContext} ctx
 * @param {string} id
 */
function storePaths(ctx, id) {
  const base = path.join(storeDir(ctx), createHash('sha256').update(id).digest('hex'));
  return { data: base, info: `${base}.json` };
}

/**
 * The upload and its offset (the bytes on disk; a finished upload's whole length), or 404; a
 * record whose bytes are gone is 410.
 * @param {StorageContext} ctx
 * @param {string} id
 * @returns {Promise<UploadState>}
 */
async function getUpload(ctx, id) {
  const { data, info } = storePaths(ctx, id);
  /** @type {UploadInfo} */
  let upload;
  try {
    upload = JSON.parse(await readFile(info, 'utf8'));
  } catch {
    throw tusError('FILE_NOT_FOUND');
  }
  if (upload.completed) return { ...upload, offset: upload.size ?? 0 };
  const size = await stat(data).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) throw tusError('FILE_NO_LONGER_EXISTS');
  return { ...upload, offset: size };
}

/**
 * @param {StorageContext} ctx
 * @param {UploadInfo} upload
 */
async function saveInfo(ctx, { id, size, metadata, creation_date, completed }) {
  await writeFile(storePaths(ctx, id).info, JSON.stringify({ id, size, metadata, creation_date, completed }));
}

/**
 * @param {StorageContext} ctx
 * @param {string} id
 */
async function removeUpload(ctx, id) {
  const { data, info } = storePaths(ctx, id);
  await rm(data, { force: true });
  await rm(info, { force: true });
}

/** @param {{ creation_date: string }} upload */
const expiresAt = (upload) => new Date(new Date(upload.creation_date).getTime() + UPLOAD_EXPIRY_MS);

/**
 * Drops the uploads past their expiry, as hosted's expired-upload clean-up does.
 * @param {StorageContext} ctx
 */
async function sweepExpired(ctx) {
  const names = await readdir(storeDir(ctx)).catch(() => /** @type {string[]} */ ([]));
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = path.join(storeDir(ctx), name);
    const upload = await readFile(file, 'utf8').then(JSON.parse, () => null);
    // One a request is still working on is left to it.
    if (!upload || ctx.uploadLocks.has(upload.id)) continue;
    if (expiresAt(upload).getTime() < Date.now()) await removeUpload(ctx, upload.id);
  }
}

// ---------------------------------------------------------------------------------------------
// Locks (postgres-locker.ts, @tus/server's lock drain)

/**
 * Takes the upload's lock. A request holding it is asked to let go: it stops taking bytes
 * LOCK_DRAIN_MS later (keeping what it got); after LOCK_WAIT_MS of waiting, 503.
 * @param {StorageContext} ctx
 * @param {string} id
 */
async function acquire(ctx, id) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let held = ctx.uploadLocks.get(id); held; held = ctx.uploadLocks.get(id)) {
    held.requestRelease();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    });
    const released = await Promise.race([held.released.then(() => true), timeout]);
    clearTimeout(timer);
    if (!released) throw storageError(503, 'LockTimeout', 'acquiring lock timeout');
  }
  const drained = new AbortController();
  /** @type {() => void} */
  let release = () => {};
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let drain;
  const lock = {
    requestRelease: () => {
      drain ??= setTimeout(() => drained.abort(), LOCK_DRAIN_MS);
    },
    released: new Promise((resolve) => {
      release = () => resolve(undefined);
    }),
  };
  ctx.uploadLocks.set(id, lock);
  return {
    signal: drained.signal,
    unlock: () => {
      clearTimeout(drain);
      if (ctx.uploadLocks.get(id) === lock) ctx.uploadLocks.delete(id);
      release();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Bytes (BaseHandler.ts writeToStore, StreamLimiter.ts)

/**
 * Appends the request's body to `file` at `offset`, at most `limit` bytes. A body cut off (the
 * client gone, or the lock asked for) ends the write with what arrived, as hosted's store keeps
 * it; a body over the limit keeps nothing and is 413.
 * @param {import('node:http').IncomingMessage} req
 * @param {string} file
 * @param {number} offset
 * @param {number} limit
 * @param {AbortSignal} signal
 * @returns {Promise<{ received: number, cut: boolean }>}
 */
function receive(req, file, offset, limit, signal) {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { flags: 'r+', start: offset });
    let received = 0;
    let over = false;
    let cut = false;
    let done = false;
    const stop = () => {
      if (done) return;
      done = true;
      req.off('data', onData).off('end', stop).off('error', onCut).off('close', onClose);
      signal.removeEventListener('abort', onCut);
      out.end();
    };
    const onCut = () => {
      cut = true;
      stop();
    };
    const onClose = () => (req.complete ? stop() : onCut());
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      if (received + chunk.length > limit) {
        over = true;
        return stop();
      }
      received += chunk.length;
      if (!out.write(chunk)) {
        req.pause();
        out.once('drain', () => done || req.resume());
      }
    };
    out.on('error', (err) => {
      stop();
      reject(err);
    });
    out.on('finish', () => {
      if (!over) return resolve({ received, cut });
      truncate(file, offset).then(() => reject(tusError('ERR_MAX_SIZE_EXCEEDED')), reject);
    });
    signal.addEventListener('abort', onCut);
    if (signal.aborted || (req.destroyed && !req.complete)) return onCut();
    req.on('data', onData).on('end', stop).on('error', onCut).on('close', onClose);
  });
}

/**
 * How many bytes this request may send (BaseHandler.ts calculateMaxBodySize).
 * @param {import('node:http').IncomingMessage} req
 * @param {UploadState} upload
 * @param {number} max
 */
function maxBodySize(req, upload, max) {
  const declared = header(req, 'content-length');
  const length = declared === null ? 0 : Number.parseInt(declared, 10);
  if (upload.size === null) {
    if (declared !== null && upload.offset + length > max) throw tusError('ERR_SIZE_EXCEEDED');
    return max - upload.offset;
  }
  if (upload.offset + length > upload.size) throw tusError('ERR_SIZE_EXCEEDED');
  return declared !== null ? length : upload.size - upload.offset;
}

// ---------------------------------------------------------------------------------------------
// Storage's rules (index.ts maxSize; lifecycle.ts onIncomingRequest, onCreate, onUploadFinish)

/**
 * The most an upload to the bucket may hold: the bucket's limit (none when 0), never above the
 * global one (config.toml's `[storage] file_size_limit`). A bucket that does not exist is 404.
 * @param {StorageContext} ctx
 * @param {string} bucketId
 */
async function maxSizeFor(ctx, bucketId) {
  return uploadLimit(ctx, await bucketOr404(ctx, bucketId), { zeroIsNone: true });
}

/**
 * The user metadata (the `metadata` entry, JSON) as JSON text, or null when absent or not JSON.
 * @param {Record<string, string | null>} metadata
 */
function userMetadataJson(metadata) {
  if (!metadata.metadata) return null;
  try {
    return JSON.stringify(JSON.parse(metadata.metadata));
  } catch {
    return null;
  }
}

/**
 * Who writes the object and whether it may replace one. On /sign the x-signature token says so
 * (and nothing is tested: the policy was tested when it was signed); else the caller, whose
 * row (the upload's type and length as metadata) is tested on every request but HEAD, an upsert
 * when x-upsert is exactly `true`.
 * @param {StorageContext} ctx
 * @param {TusCall} call
 * @param {UploadId} uid
 * @param {{ size: number | null, metadata: Record<string, string | null> } | null} upload  null for HEAD
 * @param {string} operation
 * @returns {Promise<{ owner: string | null, upsert: boolean }>}
 */
async function authorize(ctx, call, uid, upload, operation) {
  if (call.signed) {
    const signature = header(call.req, 'x-signature');
    if (!signature) throw storageError(400, 'InvalidSignature', 'Missing x-signature header');
    const payload = await verifyUploadToken(signature, uid.bucket, uid.name);
    return { owner: typeof payload.owner === 'string' ? payload.owner : null, upsert: payload.upsert === true };
  }
  const owner = ownerOf(call.claims);
  const upsert = header(call.req, 'x-upsert') === 'true';
  if (!upload) return { owner, upsert };
  const tested = { mimetype: upload.metadata.contentType ?? undefined, contentLength: upload.size ?? undefined };
  const params = [uid.bucket, uid.name, owner, JSON.stringify(tested), userMetadataJson(upload.metadata), '1'];
  await canUpload(ctx, call.claims, operation, upsert, params);
  return { owner, upsert };
}

/**
 * uploader.ts validateMimeType, as the resumable route applies it: any list, even an empty
 * one, and the type compared as sent (`type/subtype`, or `type/*` in the list).
 * @param {string} mime
 * @param {string[]} allowed
 */
function mimeTypeAllowed(mime, allowed) {
  const [type, subtype] = mime.split('/');
  if (subtype === undefined) return false;
  return allowed.some((entry) => {
    const [allowedType, allowedSubtype] = entry.split('/');
    return allowedType === type && (allowedSubtype === '*' || allowedSubtype === subtype);
  });
}

/**
 * The metadata kept with a new upload (onCreate): cacheControl `max-age=N` for a number, else
 * `no-cache`; a content type the bucket does not allow is 415.
 * @param {StorageContext} ctx
 * @param {string} bucketId
 * @param {Record<string, string | null>} sent
 */
async function creationMetadata(ctx, bucketId, sent) {
  const bucket = await bucketOr404(ctx, bucketId);
  const metadata = { ...sent };
  metadata.cacheControl = /^-?\d+$/.test(metadata.cacheControl || '') ? `max-age=${metadata.cacheControl}` : 'no-cache';
  const type = metadata.contentType;
  // The stand-in's own rule, as for every upload: it is sent back as a header on downloads.
  if (type && headerValueOrNull(type) === null)
    throw storageError(400, 'InvalidRequest', 'The content type has characters not allowed in an HTTP header');
  if (type && bucket.allowed_mime_types && !mimeTypeAllowed(type, bucket.allowed_mime_types))
    throw storageError(415, 'InvalidMimeType', `mime type ${type} is not supported`);
  return metadata;
}

/**
 * The last byte arrived: the object is written as any upload's is (objects-write.mjs
 * storeUpload), owned by this request's caller, with the upload's type (S3's
 * binary/octet-stream when none was given) and cache control. Without user metadata, the row's
 * own is kept on a replace (hosted's upsertObject leaves out what it was not given).
 * @param {StorageContext} ctx
 * @param {UploadId} uid
 * @param {UploadState} upload
 * @param {{ owner: string | null, upsert: boolean }} grant
 * @param {TusCall} call
 */
async function finish(ctx, uid, upload, grant, call) {
  const { data } = storePaths(ctx, uid.id);
  let userMetadata = userMetadataJson(upload.metadata);
  if (userMetadata === null) {
    const r = await ctx.db.query(`select user_metadata from storage.objects where bucket_id = $1 and name = $2`, [
      uid.bucket,
      uid.name,
    ]);
    const row = /** @type {{ user_metadata: unknown } | undefined} */ (r.rows[0]);
    userMetadata = row?.user_metadata == null ? null : JSON.stringify(row.user_metadata);
  }
  const claims = call.claims ?? { role: 'service_role' };
  const target = {
    claims,
    bucketId: uid.bucket,
    name: uid.name,
    upsert: grant.upsert,
    operation: OPERATIONS.tusPart,
    owner: grant.owner,
  };
  await storeUpload(
    ctx,
    target,
    {
      mime: upload.metadata.contentType || 'binary/octet-stream',
      cacheControl: upload.metadata.cacheControl ?? 'no-cache',
      userMetadata: null,
      contentLength: upload.size ?? undefined,
      discard: () => {},
      save: async (tmp) => {
        await rename(data, tmp);
        return { size: (await stat(tmp)).size, md5: await md5Of(tmp) };
      },
    },
    userMetadata,
  );
  await saveInfo(ctx, { ...upload, completed: true });
}

/** @param {string} file */
async function md5Of(file) {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------------------------
// The methods

/**
 * The request's Upload-Metadata, which the header check already found well-formed.
 * @param {string} sent
 */
function metadataOf(sent) {
  try {
    return parseMetadata(sent);
  } catch {
    throw tusError('INVALID_METADATA');
  }
}

/**
 * An error the tus server answers with Connection: close (it aborted the request's context).
 * @param {unknown} err
 */
function closing(err) {
  const e = asTusError(err);
  e.close = true;
  return e;
}

/**
 * POST: a new upload (PostHandler.ts with storage's hooks, in their order), and its first bytes
 * when the body is application/offset+octet-stream (creation-with-upload).
 * @param {StorageContext} ctx
 * @param {TusCall} call
 * @param {Record<string, string>} headers
 */
async function create(ctx, call, headers) {
  const { req } = call;
  if (header(req, 'upload-concat') !== null) throw tusError('UNSUPPORTED_CONCATENATION');
  const length = header(req, 'upload-length');
  if ((length === null) === (header(req, 'upload-defer-length') === null)) throw tusError('INVALID_LENGTH');
  const sent = header(req, 'upload-metadata');
  const metadata = sent ? metadataOf(sent) : null;
  if (!metadata) throw storageError(400, 'InvalidRequest', 'Metadata header is required');
  const uid = uploadId(metadata.bucketName || '', metadata.objectName || '', randomUUID());
  const max = await maxSizeFor(ctx, uid.bucket);
  const size = length === null ? null : Number.parseInt(length, 10);
  if (size !== null && size > max) throw tusError('ERR_MAX_SIZE_EXCEEDED');
  const grant = await authorize(ctx, call, uid, { size, metadata }, OPERATIONS.tusCreate);
  const kept = await creationMetadata(ctx, uid.bucket, metadata);
  /** @type {UploadState} */
  const upload = { id: uid.id, size, metadata: kept, creation_date: new Date().toISOString(), offset: 0 };
  /** @type {Record<string, string>} */
  const out = { ...headers };
  const lock = await acquire(ctx, uid.id);
  try {
    try {
      await sweepExpired(ctx);
      await mkdir(storeDir(ctx), { recursive: true });
      await writeFile(storePaths(ctx, uid.id).data, '');
      await saveInfo(ctx, upload);
      if (header(req, 'content-type') === 'application/offset+octet-stream') {
        const limit = maxBodySize(req, upload, max);
        upload.offset = (await receive(req, storePaths(ctx, uid.id).data, 0, limit, lock.signal)).received;
        out['Upload-Offset'] = String(upload.offset);
      }
    } catch (err) {
      throw closing(err);
    }
    if (upload.offset === upload.size) {
      await finish(ctx, uid, upload, grant, call);
      out['Tus-Complete'] = '1';
    } else out['Upload-Expires'] = expiresAt(upload).toUTCString();
  } finally {
    lock.unlock();
  }
  return reply(201, { ...out, Location: locationOf(call, uid) });
}

/**
 * A PATCH's Upload-Length, which declares a deferred upload's length once.
 * @param {StorageContext} ctx
 * @param {import('node:http').IncomingMessage} req
 * @param {UploadState} upload
 * @param {number} max
 */
async function declareLength(ctx, req, upload, max) {
  const length = header(req, 'upload-length');
  if (length === null) return;
  const size = Number.parseInt(length, 10);
  if (upload.size !== null || size < upload.offset) throw tusError('INVALID_LENGTH');
  if (size > max) throw tusError('ERR_MAX_SIZE_EXCEEDED');
  upload.size = size;
  await saveInfo(ctx, upload);
}

/**
 * PATCH: bytes at the upload's offset, which Upload-Offset must name (PatchHandler.ts). The
 * object is written when the last one arrives.
 * @param {StorageContext} ctx
 * @param {TusCall} call
 * @param {Record<string, string>} headers
 */
async function patch(ctx, call, headers) {
  const { req } = call;
  const id = fileIdOf(call.url);
  const sentOffset = header(req, 'upload-offset');
  if (sentOffset === null) throw tusError('MISSING_OFFSET');
  if (header(req, 'content-type') === null) throw tusError('INVALID_CONTENT_TYPE');
  const uid = parseUploadId(id);
  const grant = await authorize(ctx, call, uid, call.signed ? null : await getUpload(ctx, uid.id), OPERATIONS.tusPart);
  const max = await maxSizeFor(ctx, uid.bucket);
  const lock = await acquire(ctx, uid.id);
  try {
    const upload = await getUpload(ctx, uid.id);
    if (expiresAt(upload).getTime() < Date.now()) throw tusError('FILE_NO_LONGER_EXISTS');
    if (upload.offset !== Number.parseInt(sentOffset, 10)) throw tusError('INVALID_OFFSET');
    await declareLength(ctx, req, upload, max);
    const limit = maxBodySize(req, upload, max);
    // Hosted's store has closed the finished upload: writing to it fails.
    if (upload.completed) throw new Error('The specified upload does not exist.');
    const { received, cut } = await receive(req, storePaths(ctx, uid.id).data, upload.offset, limit, lock.signal);
    upload.offset += received;
    /** @type {Record<string, string>} */
    const out = { ...headers, 'Upload-Offset': String(upload.offset) };
    if (cut) out.Connection = 'close';
    if (upload.offset === upload.size) {
      await finish(ctx, uid, upload, grant, call);
      out['Tus-Complete'] = '1';
    } else out['Upload-Expires'] = expiresAt(upload).toUTCString();
    return reply(204, out);
  } finally {
    lock.unlock();
  }
}

/**
 * HEAD: the upload's offset and length (HeadHandler.ts); no permission test, only the id's.
 * @param {StorageContext} ctx
 * @param {TusCall} call
 * @param {Record<string, string>} headers
 */
async function head(ctx, call, headers) {
  const uid = parseUploadId(fileIdOf(call.url));
  await authorize(ctx, call, uid, null, OPERATIONS.tusGet);
  const lock = await acquire(ctx, uid.id);
  let upload;
  try {
    upload = await getUpload(ctx, uid.id);
  } finally {
    lock.unlock();
  }
  if (expiresAt(upload).getTime() < Date.now()) throw tusError('FILE_NO_LONGER_EXISTS');
  /** @type {Record<string, string>} */
  const out = { ...headers, 'Cache-Control': 'no-store', 'Upload-Offset': String(upload.offset) };
  if (upload.size === null) out['Upload-Defer-Length'] = '1';
  else out['Upload-Length'] = String(upload.size);
  out['Upload-Metadata'] = stringifyMetadata(upload.metadata);
  return reply(200, out);
}

/**
 * DELETE: drops an unfinished upload (DeleteHandler.ts; a finished one cannot be terminated).
 * @param {StorageContext} ctx
 * @param {TusCall} call
 * @param {Record<string, string>} headers
 */
async function terminate(ctx, call, headers) {
  const uid = parseUploadId(fileIdOf(call.url));
  await authorize(ctx, call, uid, call.signed ? null : await getUpload(ctx, uid.id), OPERATIONS.tusDelete);
  const lock = await acquire(ctx, uid.id);
  try {
    const upload = await getUpload(ctx, uid.id);
    if (upload.offset === upload.size) throw tusError('INVALID_TERMINATION');
    await removeUpload(ctx, uid.id);
  } finally {
    lock.unlock();
  }
  return reply(204, headers);
}

/** @type {Readonly<Record<string, (ctx: StorageContext, call: TusCall, headers: Record<string, string>) => Promise<Response>>>} */
const HANDLERS = Object.freeze({ POST: create, PATCH: patch, HEAD: head, DELETE: terminate });

/**
 * A request to the endpoint, past the gateway and (off /sign) storage's JWT check, answered as
 * the tus server answers: Tus-Resumable on every answer; 412 without it, 400 for a header the
 * protocol refuses; then the method's handler, or 404.
 * @param {StorageContext} ctx
 * @param {TusCall} call
 * @returns {Promise<Response>}
 */
export async function resumableUpload(ctx, call) {
  /** @type {Record<string, string>} */
  const headers = { 'Tus-Resumable': TUS_VERSION };
  if (header(call.req, 'tus-resumable') === null) return reply(412, headers, 'Tus-Resumable Required\n');
  const invalid = invalidHeaders(call.req);
  if (invalid.length > 0) return reply(400, headers, `Invalid ${invalid.join(' ')}\n`);
  headers['Access-Control-Allow-Origin'] = '*';
  headers['Access-Control-Expose-Headers'] = TUS_EXPOSED_HEADERS;
  const handler = HANDLERS[call.req.method ?? ''];
  if (!handler) return reply(404, headers, 'Not found\n');
  try {
    return await handler(ctx, call, headers);
  } catch (err) {
    const e = asTusError(err);
    // A PATCH that fails aborts its request (PatchHandler.ts), as a creation does once it writes.
    /** @type {Record<string, string>} */
    const out = { ...headers };
    if (e.close || call.req.method === 'PATCH') out.Connection = 'close';
    return reply(e.status, out, e.body);
  }
}
