// @ts-check
// POST (create, or upsert with x-upsert) and PUT (update) /object/:bucket/* (supabase/storage
// src/http/routes/object/createObject.ts, updateObject.ts; src/storage/uploader.ts). The row
// hosted Storage tests before it takes the bytes (metadata {mimetype, contentLength}) is
// inserted as the caller and rolled back; then the bytes go to disk and the row is written for
// real by the storage admin. Bytes live under the data directory, named by a hash of the name.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { STORAGE_SETTINGS } from '../config/storage.mjs';
import { headerValueOrNull } from '../http.mjs';
import { multipartBody, rawBody } from './bodies.mjs';
import { bucketOr404, OPERATIONS, ownerOf, testPermission, uploadLimit } from './context.mjs';
import { asKeyAlreadyExists, notFound, storageError, tooLarge } from './errors.mjs';
import { mimeAllowed, objectFile, validateKey } from './names.mjs';
import { findAsCaller } from './objects-read.mjs';

/**
 * The repo's global upload limit, config.toml's `[storage] file_size_limit` (50 MiB when absent),
 * before any bucket limit. A running stand-in reads its own from its context (ctx.fileSizeLimit,
 * which tests may set lower); this is the value it has by default, for scripts that ask.
 */
export const GLOBAL_FILE_SIZE_LIMIT = STORAGE_SETTINGS.fileSizeLimit;

const UPSERT_CONFLICT = `on conflict (bucket_id, name) do update set metadata = excluded.metadata,
  user_metadata = excluded.user_metadata, owner = excluded.owner, owner_id = excluded.owner_id,
  version = excluded.version, updated_at = now(), last_accessed_at = now()`;

/**
 * An object row write (insert, or upsert), with $1..$6 = bucket, name, owner, metadata, user_metadata, version.
 * @param {boolean} upsert
 */
export const writeObjectSql = (upsert) =>
  `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
   values ($1, $2, $3::text::uuid, $3::text, $4::jsonb, $5::jsonb, $6) ${upsert ? UPSERT_CONFLICT : ''}
   returning id, name, bucket_id, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at`;

/**
 * Hosted's canUpload (src/storage/uploader.ts): the row an upload, a copy or a signed upload URL
 * would write, tested as the caller and rolled back. Hosted writes it through createObject, which
 * turns a duplicate into KeyAlreadyExists (src/storage/database/pg.ts).
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('./context.mjs').Claims | null | undefined} claims
 * @param {string} operation
 * @param {boolean} upsert
 * @param {unknown[]} params  writeObjectSql's $1..$6
 */
export async function canUpload(ctx, claims, operation, upsert, params) {
  try {
    await testPermission(ctx, claims, operation, (tx) => tx.query(writeObjectSql(upsert), params));
  } catch (err) {
    throw asKeyAlreadyExists(err);
  }
}

/**
 * The upload's parameters: the caller, where it goes, whether it may replace, the route's
 * operation, and the owner the row records (a signed upload records the token's owner).
 * @typedef {{ claims: import('./context.mjs').Claims, bucketId: string, name: string, upsert: boolean,
 *   operation: string, owner: string | null }} UploadTarget
 */

/**
 * Refuses what hosted refuses before taking the bytes: a type or cache control that cannot be
 * sent back as a header, a type the bucket does not allow, a row the caller may not write.
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {UploadTarget} t
 * @param {import('./bodies.mjs').UploadBody} body
 * @param {string[] | null} allowedMimeTypes
 * @param {string | null} userMetadataJson
 */
async function checkUpload(ctx, t, body, allowedMimeTypes, userMetadataJson) {
  // Both are sent back as response headers on every download: refuse what cannot be one
  // (control characters, non-ASCII) now, rather than store an object that cannot be served.
  if (headerValueOrNull(body.mime) === null)
    throw storageError(400, 'InvalidRequest', 'The content type has characters not allowed in an HTTP header');
  if (headerValueOrNull(body.cacheControl) === null)
    throw storageError(400, 'InvalidRequest', 'cacheControl has characters not allowed in an HTTP header');
  if (!mimeAllowed(body.mime, allowedMimeTypes)) {
    throw storageError(415, 'InvalidMimeType', `mime type ${body.mime} is not supported`);
  }
  // The row hosted Storage tests before it takes the bytes: only mimetype and contentLength.
  const tested = JSON.stringify({ mimetype: body.mime, contentLength: body.contentLength });
  await canUpload(ctx, t.claims, t.operation, t.upsert, [t.bucketId, t.name, t.owner, tested, userMetadataJson, '1']);
}

/**
 * Saves the bytes to a temporary file, then writes the row and moves the file in place in one
 * transaction of the storage admin (hosted's Uploader.completeUpload, which a resumable upload's
 * last byte reaches too: resumable.mjs).
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {UploadTarget} t
 * @param {import('./bodies.mjs').UploadBody} body
 * @param {string | null} userMetadataJson
 * @returns {Promise<{ id: string }>}
 */
export async function storeUpload(ctx, t, body, userMetadataJson) {
  const tmpDir = path.join(ctx.root, '.tmp');
  const tmp = path.join(tmpDir, randomBytes(12).toString('hex'));
  const version = randomBytes(16).toString('hex');
  try {
    await mkdir(tmpDir, { recursive: true });
    const { size, md5 } = await body.save(tmp);
    const metadata = {
      eTag: `"${md5}"`,
      size,
      mimetype: body.mime,
      cacheControl: body.cacheControl,
      lastModified: new Date().toISOString(),
      contentLength: size,
      httpStatusCode: 200,
    };
    return await ctx.db.transaction(async (tx) => {
      const r = await tx.query(writeObjectSql(true), [
        t.bucketId,
        t.name,
        t.owner,
        JSON.stringify(metadata),
        userMetadataJson,
        version,
      ]);
      const dest = objectFile(ctx.root, t.bucketId, t.name);
      await mkdir(path.dirname(dest), { recursive: true });
      await rename(tmp, dest);
      return /** @type {{ id: string }} */ (r.rows[0]);
    });
  } catch (err) {
    body.discard();
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * An upload of the request's body to `t`.
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('node:http').IncomingMessage} req
 * @param {UploadTarget} t
 * @returns {Promise<{ Id: string, Key: string }>}
 */
export async function upload(ctx, req, t) {
  const bucket = await bucketOr404(ctx, t.bucketId);
  validateKey(t.name);
  const limit = uploadLimit(ctx, bucket);
  const contentType = String(req.headers['content-type'] ?? 'application/octet-stream');
  // Hosted reads a body as multipart only when its type starts with exactly this (uploader.ts).
  const body = contentType.startsWith('multipart/form-data')
    ? await multipartBody(req, limit, tooLarge)
    : await rawBody(req, contentType, limit, tooLarge);
  const userMetadataJson = body.userMetadata == null ? null : JSON.stringify(body.userMetadata);
  try {
    await checkUpload(ctx, t, body, bucket.allowed_mime_types, userMetadataJson);
  } catch (err) {
    body.discard();
    throw err;
  }
  // The row written keeps `{ ...userMetadata }`: `{}` when none was sent (src/storage/uploader.ts
  // upload); the permission test above sees the metadata as sent.
  const row = await storeUpload(ctx, t, body, JSON.stringify(body.userMetadata ?? {}));
  return { Id: row.id, Key: `${t.bucketId}/${t.name}` };
}

/**
 * POST (create, or upsert with x-upsert) and PUT (update: the object must exist and be
 * visible to the caller) /object/:bucket/*.
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('node:http').IncomingMessage} req
 * @param {import('./context.mjs').Caller} caller
 * @param {string} bucketId
 * @param {string} name
 */
export async function uploadRoute(ctx, req, caller, bucketId, name) {
  const method = req.method;
  const upsert = method === 'PUT' || String(req.headers['x-upsert'] ?? '').toLowerCase() === 'true';
  if (method === 'PUT') {
    validateKey(name);
    await bucketOr404(ctx, bucketId);
    if (!(await findAsCaller(ctx, caller(), bucketId, name, OPERATIONS.uploadUpdate))) throw notFound();
  }
  const operation = method === 'PUT' ? OPERATIONS.uploadUpdate : OPERATIONS.upload;
  const claims = caller();
  return upload(ctx, req, { claims, bucketId, name, upsert, operation, owner: ownerOf(claims) });
}
