// @ts-check
// DELETE /object/:bucket (many, by `prefixes`) and DELETE /object/:bucket/* (one)
// (supabase/storage src/http/routes/object/deleteObjects.ts, deleteObject.ts): the rows are
// deleted as the caller, then their bytes.
import { rm } from 'node:fs/promises';
import { asCaller, bucketOr404, fieldsOf, OPERATIONS } from './context.mjs';
import { notFound, storageError } from './errors.mjs';
import { objectFile, validateKey } from './names.mjs';

/** @typedef {import('@supabase/storage-js').FileObject} FileObject */

/**
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('./context.mjs').Claims} claims
 * @param {string} bucketId
 * @param {unknown} body
 * @param {string} [operation]
 * @returns {Promise<FileObject[]>}
 */
export async function removeMany(ctx, claims, bucketId, body, operation = OPERATIONS.deleteMany) {
  await bucketOr404(ctx, bucketId);
  const b = fieldsOf(body);
  const prefixes = Array.isArray(b.prefixes)
    ? b.prefixes.filter((/** @type {unknown} */ p) => typeof p === 'string')
    : null;
  if (!prefixes) throw storageError(400, 'InvalidRequest', 'body must have required property prefixes');
  if (prefixes.length === 0) return [];
  const rows = await asCaller(ctx, claims, operation, async (tx) => {
    const r = await tx.query(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
        returning id, name, bucket_id, owner, updated_at, created_at, last_accessed_at, metadata`,
      [bucketId, prefixes],
    );
    return /** @type {FileObject[]} */ (r.rows);
  });
  await Promise.all(rows.map((row) => rm(objectFile(ctx.root, bucketId, row.name), { force: true })));
  return rows;
}

/**
 * DELETE /object/:bucket/*: one object.
 * @param {import('./context.mjs').StorageContext} ctx
 * @param {import('./context.mjs').Caller} caller
 * @param {string} bucketId
 * @param {string} name
 */
export async function removeOne(ctx, caller, bucketId, name) {
  validateKey(name);
  const rows = await removeMany(ctx, caller(), bucketId, { prefixes: [name] }, OPERATIONS.delete);
  if (rows.length === 0) throw notFound();
  return { message: 'Successfully deleted' };
}
