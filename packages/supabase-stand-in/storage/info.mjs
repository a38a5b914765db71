// @ts-check
// GET /object/info/public/:bucket/*, /object/info/authenticated/:bucket/* and /object/info/:bucket/*
// (supabase/storage src/http/routes/object/getObjectInfo.ts requestHandler; the answer is
// src/storage/renderer/info.ts InfoRenderer's): an object's row and what its metadata says of the
// bytes, without them.
import { asCaller, OPERATIONS } from './context.mjs';
import { noSuchBucket, notFound } from './errors.mjs';
import { validateBucket, validateKey } from './names.mjs';

/**
 * The info answer, InfoRenderer's body: `metadata` is the user's own metadata, `last_modified`
 * the row's `updated_at`.
 * @typedef {{ id: string, name: string, version: string | null, bucket_id: string, size: number | null,
 *   content_type: string | null, cache_control: string | null, etag: string | null,
 *   metadata: unknown, last_modified: Date | string | null, created_at: Date | string | null }} ObjectInfo
 */

/**
 * @typedef {{ id: string, name: string, version: string | null, bucket_id: string,
 *   metadata: Record<string, unknown> | null, user_metadata: unknown,
 *   updated_at: Date | string | null, created_at: Date | string | null }} InfoRow
 */

const INFO_SQL = `select id, name, version, bucket_id, metadata, user_metadata, updated_at, created_at
  from storage.objects where bucket_id = $1 and name = $2`;

/**
 * A whole number from the stored metadata, as hosted reads it (head.ts parseMetadataNumber).
 * @param {unknown} v
 */
const metadataNumber = (v) => {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  return null;
};

/** @param {unknown} v */
const metadataString = (v) => (typeof v === 'string' ? v : null);

/**
 * The answer and its headers (InfoRenderer setHeaders: ETag, Last-Modified and Cache-Control
 * from the stored metadata).
 * @param {InfoRow} row
 * @returns {{ body: ObjectInfo, headers: Record<string, string> }}
 */
function infoAnswer(row) {
  const meta = row.metadata ?? {};
  const body = {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: metadataNumber(meta.size),
    content_type: metadataString(meta.mimetype),
    cache_control: metadataString(meta.cacheControl),
    etag: metadataString(meta.eTag),
    metadata: row.user_metadata ?? null,
    last_modified: row.updated_at,
    created_at: row.created_at,
  };
  /** @type {Record<string, string>} */
  const headers = {};
  if (body.etag) headers.ETag = body.etag;
  const lastModified = new Date(metadataString(meta.lastModified) ?? Number.NaN);
  if (!Number.isNaN(lastModified.getTime())) headers['Last-Modified'] = lastModified.toUTCString();
  if (body.cache_control) headers['Cache-Control'] = body.cache_control;
  return { body, headers };
}

/**
 * Hosted's requestHandler for the info routes. The bucket is read as the superuser: without an
 * authenticated caller a bucket that is missing or not public is NoSuchBucket (so the public route
 * tells a private bucket from a public one without naming an object), and a missing bucket is
 * NoSuchBucket for anyone. The object of a public bucket, or any on the public route, is read as
 * the superuser; otherwise as the caller, under RLS. A row not found is NoSuchKey.
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('./context.mjs').Claims | null} claims  null: no authenticated caller
 * @param {string} bucketId
 * @param {string} name
 * @param {{ publicRoute: boolean }} options
 */
export async function objectInfo(ctx, claims, bucketId, name, { publicRoute }) {
  validateBucket(bucketId);
  const r = await ctx.db.query(`select public from storage.buckets where id = $1`, [bucketId]);
  const bucket = /** @type {{ public: boolean } | undefined} */ (r.rows[0]);
  if (!bucket || (!claims && !bucket.public)) throw noSuchBucket();
  validateKey(name);
  const found =
    bucket.public || publicRoute || !claims
      ? await ctx.db.query(INFO_SQL, [bucketId, name])
      : await asCaller(ctx, claims, OPERATIONS.getAuthenticatedInfo, (tx) => tx.query(INFO_SQL, [bucketId, name]));
  const row = /** @type {InfoRow | undefined} */ (found.rows[0]);
  if (!row) throw notFound();
  return infoAnswer(row);
}
