// @ts-check
// Downloads: GET/HEAD /object/public/:bucket/*, /object/authenticated/:bucket/*, /object/:bucket/*
// and /object/sign/:bucket/*?token= (supabase/storage src/http/routes/object/getPublicObject.ts,
// getObject.ts, getSignedObject.ts; the headers as src/storage/backend/file.ts sets them). The
// bytes stream from disk.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { attachmentDisposition, headerValueOrNull } from '../http.mjs';
import { verifyJwt } from '../keys.mjs';
import { asCaller, bucketOr404, OPERATIONS } from './context.mjs';
import { joseMessage, notFound, storageError } from './errors.mjs';
import { objectFile, validateKey } from './names.mjs';
import { parseRange } from './range.mjs';

/** @typedef {import('./context.mjs').StorageContext} StorageContext */
/** @typedef {import('./context.mjs').ObjectRow} ObjectRow */

const ROW_COLUMNS = `id, name, metadata, updated_at`;

/**
 * The object's row as the caller sees it, or null.
 * @param {StorageContext} ctx
 * @param {import('./context.mjs').Claims} claims
 * @param {string} bucketId
 * @param {string} name
 * @param {string} [operation]
 * @returns {Promise<ObjectRow | null>}
 */
export async function findAsCaller(ctx, claims, bucketId, name, operation = OPERATIONS.getAuthenticated) {
  return asCaller(ctx, claims, operation, async (tx) => {
    const r = await tx.query(`select ${ROW_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`, [
      bucketId,
      name,
    ]);
    return /** @type {ObjectRow | undefined} */ (r.rows[0]) ?? null;
  });
}

/**
 * The object's row read as the admin, or 404.
 * @param {StorageContext} ctx
 * @param {string} bucketId
 * @param {string} name
 * @returns {Promise<ObjectRow>}
 */
async function rowOr404(ctx, bucketId, name) {
  const r = await ctx.db.query(`select ${ROW_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`, [
    bucketId,
    name,
  ]);
  const row = /** @type {ObjectRow | undefined} */ (r.rows[0]);
  if (!row) throw notFound();
  return row;
}

/**
 * @typedef {{ expires?: string, range?: string | null, ifNoneMatch?: string | null,
 *   ifModifiedSince?: string | null }} DownloadOptions `expires`: a signed URL's
 * expiry, sent as `Expires` instead of the object's `Cache-Control` (hosted Storage's signed route
 * renders with `expires`, src/http/routes/object/getSignedObject.ts); `range`, `ifNoneMatch`,
 * `ifModifiedSince`: the request's Range, If-None-Match and If-Modified-Since headers.
 */

/**
 * Whether the client's copy is still current. Hosted Storage hands If-None-Match and
 * If-Modified-Since to its backend (src/storage/renderer/asset.ts getAsset), whose S3 GetObject
 * answers 304 when the ETag is one the client named (or `*`), or, when no If-None-Match was sent,
 * when the object has not changed since the date; the renderer then sends a bare 304
 * (src/storage/renderer/renderer.ts render).
 * @param {string} etag  the ETag the download would carry
 * @param {Date} lastModified
 * @param {DownloadOptions} options
 */
function notModified(etag, lastModified, options) {
  if (options.ifNoneMatch) {
    const named = options.ifNoneMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
    return named.includes('*') || named.includes(etag);
  }
  if (!options.ifModifiedSince) return false;
  const since = Date.parse(options.ifModifiedSince);
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/**
 * An object's bytes with storage-api's headers, streamed from disk (no body for HEAD): the
 * whole object (200) or the range asked for (206, see range.mjs).
 * @param {StorageContext} ctx
 * @param {string} method  the request's method
 * @param {string} bucket
 * @param {ObjectRow} row
 * @param {URL} url
 * @param {DownloadOptions} [options]
 * @returns {Promise<Response>}
 */
export async function objectResponse(ctx, method, bucket, row, url, options = {}) {
  const file = objectFile(ctx.root, bucket, row.name);
  let info;
  try {
    info = await stat(file);
  } catch {
    throw notFound();
  }
  const headers = downloadHeaders(row, info, url, options);
  if (notModified(headers.ETag ?? '', new Date(headers['Last-Modified'] ?? 0), options))
    return new Response(null, { status: 304 });
  const range = options.range ? parseRange(options.range, info.size) : null;
  if (range) {
    headers['Content-Range'] = `bytes ${range.fromByte}-${range.toByte}/${info.size}`;
    headers['Content-Length'] = String(range.size);
  }
  const status = range ? 206 : 200;
  if (method === 'HEAD') return new Response(null, { status, headers });
  // Cancelling the web stream (the client went away) destroys the file stream.
  const stream = /** @type {ReadableStream<Uint8Array>} */ (
    /** @type {any} */ (ReadableStream).from(
      createReadStream(file, range ? { start: range.fromByte, end: range.toByte } : {}),
    )
  );
  return new Response(stream, { status, headers });
}

/**
 * The headers of a whole object's download (storage-api's renderer, setHeaders).
 * @param {ObjectRow} row
 * @param {{ size: number, mtime: Date }} info
 * @param {URL} url
 * @param {DownloadOptions} options
 * @returns {Record<string, string>}
 */
function downloadHeaders(row, info, url, options) {
  const meta = row.metadata ?? {};
  // Stored values are checked at upload, but objects written before that check (or by other
  // means) may hold something Node refuses as a header value: such a value falls back to the
  // default instead of throwing half-way through the answer.
  /** @type {Record<string, string>} */
  const headers = {
    'Accept-Ranges': 'bytes',
    'Content-Type': headerValueOrNull(meta.mimetype) ?? 'application/octet-stream',
    'Content-Length': String(info.size),
    ETag: headerValueOrNull(meta.eTag) ?? `"${row.id}"`,
    'Last-Modified': new Date(row.updated_at ?? info.mtime).toUTCString(),
  };
  if (options.expires) headers.Expires = options.expires;
  else headers['Cache-Control'] = headerValueOrNull(meta.cacheControl) ?? 'no-cache';
  if (url.searchParams.has('download')) {
    const wanted = url.searchParams.get('download') || path.posix.basename(row.name);
    headers['Content-Disposition'] = attachmentDisposition(wanted);
  }
  return headers;
}

/**
 * GET /object/public/:bucket/*: any object of a public bucket, no caller needed.
 * @param {StorageContext} ctx
 * @param {string} bucketId
 * @param {string} name
 */
export async function publicObject(ctx, bucketId, name) {
  const bucket = await bucketOr404(ctx, bucketId);
  validateKey(name);
  if (!bucket.public) throw notFound();
  return rowOr404(ctx, bucket.id, name);
}

// The endpoints below take the caller as `caller()`, called where storage-api checks for one
// (after the bucket and key, say), so a request wrong in several ways gets the same error first.

/**
 * GET /object/authenticated/:bucket/* and GET /object/:bucket/*: the object, read as the caller.
 * @param {StorageContext} ctx
 * @param {import('./context.mjs').Caller} caller
 * @param {string} bucketId
 * @param {string} name
 */
export async function callerObject(ctx, caller, bucketId, name) {
  await bucketOr404(ctx, bucketId);
  validateKey(name);
  const row = await findAsCaller(ctx, caller(), bucketId, name);
  if (!row) throw notFound();
  return row;
}

/**
 * The token's scope claim, or the legacy rule: a token without an `upsert` claim is a download token.
 * @param {Record<string, unknown>} p
 */
const isDownloadToken = (p) => p.scope === 'download' || (p.scope === undefined && !('upsert' in p));

/**
 * GET /object/sign/:bucket/*?token=: the object a download token names, no caller needed.
 * @param {StorageContext} ctx
 * @param {string} bucketId
 * @param {string} name
 * @param {string | null} token
 */
export async function signedObject(ctx, bucketId, name, token) {
  validateKey(name);
  // The route's querystring schema requires the token (getSignedObject.ts): fastify's validation error.
  if (!token) throw storageError(400, 'InvalidRequest', "querystring must have required property 'token'");
  // src/storage/object.ts verifyObjectSignature: InvalidJWT with jose's message, then the scope and the path.
  let payload;
  try {
    payload = await verifyJwt(token);
  } catch (e) {
    throw storageError(400, 'InvalidJWT', joseMessage(e));
  }
  if (!isDownloadToken(payload)) throw storageError(400, 'InvalidSignature', 'Token is not scoped for download');
  if (payload.url !== `${bucketId}/${name}`) throw storageError(400, 'InvalidSignature', 'Invalid signature');
  const row = await rowOr404(ctx, bucketId, name);
  return { row, expires: new Date(Number(payload.exp) * 1000).toUTCString() };
}
