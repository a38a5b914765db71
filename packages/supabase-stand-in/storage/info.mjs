// @ts-check
// GET /object/info/public/:bucket/* and GET /object/info/:bucket/* (supabase/storage
// src/http/routes/object/getObjectInfo.ts): an object's row without its bytes.
import { bucketOr404, OPERATIONS } from './context.mjs';
import { noSuchBucket, notFound, notFoundInBody } from './errors.mjs';
import { validateBucket, validateKey } from './names.mjs';
import { findAsCaller } from './objects-read.mjs';

/**
 * The info answer: the object's id, name, bucket, metadata and last update.
 * @typedef {{ id: string, name: string, bucket_id: string, metadata: Record<string, unknown> | null,
 *   updated_at: Date | string | null }} ObjectInfo
 */

/**
 * GET /object/info/public/:bucket/*, a public route: no caller is ever authenticated there. A
 * bucket that is missing or not public is NoSuchBucket, so the answer tells a private bucket
 * from a public one without naming an object; otherwise the object's row, read as the
 * superuser, or NoSuchKey.
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {string} bucketId
 * @param {string} name
 * @returns {Promise<ObjectInfo>}
 */
export async function publicInfo(ctx, bucketId, name) {
  validateBucket(bucketId);
  const r = await ctx.db.query(`select public from storage.buckets where id = $1`, [bucketId]);
  if (!(/** @type {{ public?: boolean } | undefined} */ (r.rows[0])?.public)) throw noSuchBucket();
  validateKey(name);
  const row = await ctx.db.query(
    `select id, metadata, updated_at from storage.objects where bucket_id = $1 and name = $2`,
    [bucketId, name],
  );
  const found = /** @type {Omit<ObjectInfo, 'name' | 'bucket_id'> | undefined} */ (row.rows[0]);
  if (!found) throw notFoundInBody();
  const { id, metadata, updated_at } = found;
  return { id, name, bucket_id: bucketId, metadata, updated_at };
}

/**
 * GET /object/info/:bucket/*: the object's row, read as the caller.
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('./context.mjs').Caller} caller
 * @param {string} bucketId
 * @param {string} name
 * @returns {Promise<ObjectInfo>}
 */
export async function info(ctx, caller, bucketId, name) {
  await bucketOr404(ctx, bucketId);
  validateKey(name);
  const row = await findAsCaller(ctx, caller(), bucketId, name, OPERATIONS.getAuthenticatedInfo);
  if (!row) throw notFound();
  return { id: row.id, name, bucket_id: bucketId, metadata: row.metadata, updated_at: row.updated_at };
}
