// @ts-check
// GET /bucket/:id (supabase/storage src/http/routes/bucket/getBucket.ts), read as the caller:
// storage.buckets has RLS and, on the platform, no policy.
import { asCaller, OPERATIONS } from './context.mjs';
import { noSuchBucket } from './errors.mjs';
import { validateBucket } from './names.mjs';

/**
 * The bucket as storage-js's getBucket reads it (its Bucket type, with the database's
 * timestamps and nullable limits as they are sent).
 * @typedef {Omit<import('@supabase/storage-js').Bucket, 'created_at' | 'updated_at' | 'file_size_limit' |
 *   'allowed_mime_types' | 'owner' | 'type'> & { owner: string | null, created_at: Date | string,
 *   updated_at: Date | string, file_size_limit: number | string | null, allowed_mime_types: string[] | null }} BucketAnswer
 */

/**
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('./context.mjs').Claims} claims
 * @param {string} id
 * @returns {Promise<BucketAnswer>}
 */
export async function getBucket(ctx, claims, id) {
  validateBucket(id);
  const row = await asCaller(ctx, claims, OPERATIONS.getBucket, async (tx) => {
    const r = await tx.query(
      `select id, name, owner, public, created_at, updated_at, file_size_limit, allowed_mime_types
         from storage.buckets where id = $1`,
      [id],
    );
    return /** @type {BucketAnswer | undefined} */ (r.rows[0]) ?? null;
  });
  if (!row) throw noSuchBucket();
  return row;
}
