// @ts-check
// What every /storage/v1 module is given, explicitly: the database (the storage admin's
// connection), how to run SQL as the caller (db.mjs withClaims), and where the objects' bytes
// live. Beside it, the pieces every route group shares, as hosted Storage shares them
// (supabase/storage src/storage/database/knex.ts for the caller's transaction and
// src/storage/object.ts for testPermission).
import { STORAGE_SETTINGS } from '../config/storage.mjs';
import { isBadInputPgError, isPgError } from '../pg-errors.mjs';
import { noSuchBucket, storageError } from './errors.mjs';
import { validateBucket } from './names.mjs';

/** @typedef {import('@electric-sql/pglite').PGlite} Db */
/** @typedef {import('@electric-sql/pglite').Transaction} Tx */
/** @typedef {import('../db.mjs').Claims} Claims */

/**
 * A resumable upload's lock while a request holds it (resumable.mjs): another request for the
 * same upload asks the holder to let go, then waits for `released`.
 * @typedef {{ requestRelease: () => void, released: Promise<void> }} UploadLock
 */

/**
 * @typedef {{ db: Db, withClaims: typeof import('../db.mjs').withClaims, root: string,
 *   fileSizeLimit: number, uploadLocks: Map<string, UploadLock> }} StorageContext
 *   root: where the objects' bytes live (names.mjs objectFile); fileSizeLimit: the global upload
 *   limit in bytes, config.toml's `[storage] file_size_limit` (config/storage.mjs), which no
 *   upload passes whatever its bucket allows; uploadLocks: the resumable uploads a request is
 *   working on, by upload id.
 */

/** A row of storage.buckets as the routes read it. */
/** @typedef {{ id: string, public: boolean, file_size_limit: number | string | null, allowed_mime_types: string[] | null }} BucketRow */

/**
 * A row of storage.objects as a download or info reads it.
 * @typedef {{ id: string, name: string, metadata: Record<string, unknown> | null, updated_at: Date | string | null }} ObjectRow
 */

/** Claims of a caller, asked for only where storage-api checks for one. */
/** @typedef {() => Claims} Caller */

/**
 * @param {Pick<StorageContext, 'db' | 'withClaims' | 'root'> & { fileSizeLimit?: number | undefined }} deps
 *   fileSizeLimit: config.toml's unless given (tests).
 * @returns {StorageContext}
 */
export function createStorageContext({ db, withClaims, root, fileSizeLimit }) {
  return {
    db,
    withClaims,
    root,
    fileSizeLimit: fileSizeLimit ?? STORAGE_SETTINGS.fileSizeLimit,
    uploadLocks: new Map(),
  };
}

/**
 * The most an upload to `bucket` may hold: the bucket's own limit, never above the global one
 * (supabase/storage src/storage/uploader.ts getStandardMaxFileSizeLimit; the resumable route's
 * maxSize in src/http/routes/tus/index.ts, which reads a limit of 0 as none).
 * @param {StorageContext} ctx
 * @param {BucketRow} bucket
 * @param {{ zeroIsNone?: boolean }} [options]  zeroIsNone: the resumable route's reading
 */
export function uploadLimit(ctx, bucket, { zeroIsNone = false } = {}) {
  const own = bucket.file_size_limit === null ? null : Number(bucket.file_size_limit);
  if (own === null || (zeroIsNone && own === 0)) return ctx.fileSizeLimit;
  return Math.min(own, ctx.fileSizeLimit);
}

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
  tusCreate: 'storage.tus.upload.create',
  tusPart: 'storage.tus.upload.part',
  tusGet: 'storage.tus.upload.get',
  tusDelete: 'storage.tus.upload.delete',
});

/**
 * The owner hosted Storage records: the caller's user id when signed in.
 * @param {Claims | null | undefined} claims
 * @returns {string | null}
 */
export const ownerOf = (claims) =>
  claims?.role === 'authenticated' && typeof claims.sub === 'string' ? claims.sub : null;

/**
 * The bucket's row, read as the admin, or 404.
 * @param {StorageContext} ctx
 * @param {string} id
 * @returns {Promise<BucketRow>}
 */
export async function bucketOr404(ctx, id) {
  validateBucket(id);
  const r = await ctx.db.query(
    `select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1`,
    [id],
  );
  const row = /** @type {BucketRow | undefined} */ (r.rows[0]);
  if (!row) throw noSuchBucket();
  return row;
}

/**
 * A Postgres error raised as the caller, in storage-api's words (src/storage/database/errors.ts
 * DBError.fromDBError: 42501 AccessDenied, 23505 ResourceAlreadyExists, else DatabaseError).
 * @param {import('../pg-errors.mjs').PgError} err
 */
function callerPgError(err) {
  if (err.code === '42501')
    return storageError(
      403,
      'AccessDenied',
      err.message.includes('row-level security') ? 'new row violates row-level security policy' : err.message,
    );
  if (err.code === '23505') return storageError(409, 'ResourceAlreadyExists', 'The resource already exists');
  if (isBadInputPgError(err) || err.code?.startsWith('23')) return storageError(400, 'InvalidRequest', err.message);
  return storageError(500, 'DatabaseError', err.message);
}

/**
 * Runs fn as the caller in one transaction that has storage.operation set, as hosted does.
 * @template T
 * @param {StorageContext} ctx
 * @param {Claims | null | undefined} claims
 * @param {string} operation
 * @param {(tx: Tx) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function asCaller(ctx, claims, operation, fn) {
  try {
    return await ctx.withClaims(ctx.db, claims, async (tx) => {
      await tx.query(`select set_config('storage.operation', $1, true)`, [operation]);
      return fn(tx);
    });
  } catch (err) {
    if (isPgError(err)) throw callerPgError(err);
    throw err;
  }
}

/** Thrown inside a permission test to roll it back; never leaves testPermission. */
const ROLLBACK = Symbol('rollback');

/**
 * Runs fn as the caller and rolls it back: hosted Storage's testPermission.
 * @param {StorageContext} ctx
 * @param {Claims | null | undefined} claims
 * @param {string} operation
 * @param {(tx: Tx) => Promise<unknown>} fn
 */
export async function testPermission(ctx, claims, operation, fn) {
  try {
    await asCaller(ctx, claims, operation, async (tx) => {
      await fn(tx);
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
}

/**
 * Postgres refusing the data itself (outside asCaller, which maps its own) is the client's error, not a 500.
 * @param {unknown} err
 */
export function asStorageError(err) {
  if (isBadInputPgError(err)) return storageError(400, 'InvalidRequest', /** @type {Error} */ (err).message);
  return err;
}

/**
 * A JSON body's fields, or none when it is not an object.
 * @param {unknown} body
 * @returns {Record<string, any>}
 */
export const fieldsOf = (body) => (body && typeof body === 'object' ? /** @type {Record<string, any>} */ (body) : {});
