// @ts-check
// POST /object/copy and POST /object/move (supabase/storage src/http/routes/object/copyObject.ts,
// moveObject.ts; src/storage/object.ts copyObject, moveObject): a copy reads the source as the
// caller and tests the destination row with its metadata; a move tests the source row renamed.
// Both are then written for real by the storage admin.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { headerValueOrNull } from '../http.mjs';
import { metadataHeader } from './bodies.mjs';
import { asCaller, bucketOr404, fieldsOf, OPERATIONS, ownerOf, testPermission } from './context.mjs';
import { notFound, storageError } from './errors.mjs';
import { objectFile, validateKey } from './names.mjs';
import { canUpload, writeObjectSql } from './objects-write.mjs';

/** @typedef {import('./context.mjs').StorageContext} StorageContext */
/** @typedef {import('./context.mjs').Claims} Claims */

/**
 * The body copy and move share: both buckets must exist and both keys be valid.
 * @param {StorageContext} ctx
 * @param {unknown} body
 */
async function transferRequest(ctx, body) {
  const b = fieldsOf(body);
  const str = (/** @type {unknown} */ v) => (typeof v === 'string' ? v : null);
  const bucketId = str(b.bucketId);
  const sourceKey = str(b.sourceKey);
  const destinationKey = str(b.destinationKey);
  if (bucketId === null || sourceKey === null || destinationKey === null)
    throw storageError(400, 'InvalidRequest', 'body must have required properties bucketId, sourceKey, destinationKey');
  const destinationBucket = str(b.destinationBucket) || bucketId;
  await bucketOr404(ctx, bucketId);
  await bucketOr404(ctx, destinationBucket);
  validateKey(sourceKey);
  validateKey(destinationKey);
  return { bucketId, sourceKey, destinationKey, destinationBucket };
}

/**
 * The copy's metadata: the source's, or with copyMetadata false, the source's overridden by the
 * body's cacheControl and mimetype and the request's x-metadata as user metadata.
 * @param {import('node:http').IncomingMessage} req
 * @param {Record<string, any>} b
 * @param {{ metadata: Record<string, unknown> | null, user_metadata: unknown }} source
 */
function copiedMetadata(req, b, source) {
  const copyMetadata = b.copyMetadata !== false;
  const fileMetadata = b.metadata && typeof b.metadata === 'object' ? b.metadata : {};
  /** @type {Record<string, unknown>} */
  const metadata = { ...(source.metadata ?? {}) };
  if (copyMetadata) return { metadata, userMetadata: source.user_metadata ?? null };
  for (const key of ['cacheControl', 'mimetype']) {
    if (fileMetadata[key] === undefined) continue;
    if (typeof fileMetadata[key] !== 'string' || headerValueOrNull(fileMetadata[key]) === null)
      throw storageError(400, 'InvalidRequest', `metadata.${key} must be a string usable as an HTTP header`);
    metadata[key] = fileMetadata[key];
  }
  return { metadata, userMetadata: metadataHeader(req) };
}

/**
 * POST /object/copy: hosted semantics (source read as the caller, destination tested with its metadata).
 * @param {StorageContext} ctx
 * @param {import('node:http').IncomingMessage} req
 * @param {Claims} claims
 * @param {unknown} body
 */
export async function copy(ctx, req, claims, body) {
  const { bucketId, sourceKey, destinationKey, destinationBucket } = await transferRequest(ctx, body);
  const upsert = String(req.headers['x-upsert'] ?? '') === 'true';
  const source = await asCaller(ctx, claims, OPERATIONS.copy, async (tx) => {
    const r = await tx.query(
      `select metadata, user_metadata, version from storage.objects where bucket_id = $1 and name = $2`,
      [bucketId, sourceKey],
    );
    return /** @type {{ metadata: Record<string, unknown> | null, user_metadata: unknown } | undefined} */ (
      r.rows[0] ?? null
    );
  });
  if (!source) throw notFound();
  const { metadata, userMetadata } = copiedMetadata(req, fieldsOf(body), source);
  const owner = ownerOf(claims);
  const userMetadataJson = userMetadata == null ? null : JSON.stringify(userMetadata);
  const destination = [destinationBucket, destinationKey, owner];
  await canUpload(ctx, claims, OPERATIONS.copy, upsert, [
    ...destination,
    JSON.stringify(metadata),
    userMetadataJson,
    '1',
  ]);
  const to = objectFile(ctx.root, destinationBucket, destinationKey);
  const bytes = await readFile(objectFile(ctx.root, bucketId, sourceKey)).catch(() => {
    throw notFound();
  });
  const written = JSON.stringify({ ...metadata, lastModified: new Date().toISOString() });
  const row = await ctx.db.transaction(async (tx) => {
    const r = await tx.query(writeObjectSql(true), [
      ...destination,
      written,
      userMetadataJson,
      randomBytes(16).toString('hex'),
    ]);
    await mkdir(path.dirname(to), { recursive: true });
    await writeFile(to, bytes);
    return /** @type {Record<string, unknown> & { id: string }} */ (r.rows[0]);
  });
  return { Id: row.id, Key: `${destinationBucket}/${destinationKey}`, ...row };
}

const MOVE_SQL = `update storage.objects set name = $3, bucket_id = $4, version = $5, owner = $6::text::uuid,
    owner_id = $6::text`;

/**
 * POST /object/move: the source row renamed, tested as the caller, then moved by the admin.
 * @param {StorageContext} ctx
 * @param {Claims} claims
 * @param {unknown} body
 */
export async function move(ctx, claims, body) {
  const { bucketId, sourceKey, destinationKey, destinationBucket } = await transferRequest(ctx, body);
  const params = [
    bucketId,
    sourceKey,
    destinationKey,
    destinationBucket,
    randomBytes(16).toString('hex'),
    ownerOf(claims),
  ];
  await testPermission(ctx, claims, OPERATIONS.move, async (tx) => {
    const found = await tx.query(`select id from storage.objects where bucket_id = $1 and name = $2`, [
      bucketId,
      sourceKey,
    ]);
    if (!found.rows[0]) throw notFound();
    const moved = await tx.query(`${MOVE_SQL} where bucket_id = $1 and name = $2 returning id`, params);
    if (!moved.rows[0]) throw notFound();
  });
  const from = objectFile(ctx.root, bucketId, sourceKey);
  const to = objectFile(ctx.root, destinationBucket, destinationKey);
  const row = await ctx.db.transaction(async (tx) => {
    const r = await tx.query(
      `${MOVE_SQL}, updated_at = now() where bucket_id = $1 and name = $2 returning id, name`,
      params,
    );
    const moved = /** @type {{ id: string, name: string } | undefined} */ (r.rows[0]);
    if (!moved) throw notFound();
    if (from !== to) {
      await mkdir(path.dirname(to), { recursive: true });
      await rename(from, to);
    }
    return moved;
  });
  return { message: 'Successfully moved', Id: row.id, Key: row.name };
}
