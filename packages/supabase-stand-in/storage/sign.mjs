// @ts-check
// Signed download URLs: POST /object/sign/:bucket/* (one) and POST /object/sign/:bucket (many)
// (supabase/storage src/http/routes/object/getSignedURL.ts, getSignedURLs.ts). The object is
// read as the caller; the URL's token names the path and expires.
import { signJwt } from '../keys.mjs';
import { asCaller, fieldsOf, OPERATIONS } from './context.mjs';
import { notFound, storageError } from './errors.mjs';
import { validateKey } from './names.mjs';
import { findAsCaller } from './objects-read.mjs';

/** @typedef {import('./context.mjs').StorageContext} StorageContext */
/** @typedef {() => Promise<unknown>} ReadJson */

/**
 * A download token for `bucketId/name`, valid for `expiresIn` seconds.
 * @param {string} bucketId
 * @param {string} name
 * @param {unknown} expiresIn
 */
async function signToken(bucketId, name, expiresIn) {
  const seconds = Number(expiresIn);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw storageError(400, 'InvalidRequest', 'expiresIn must be a positive number');
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ url: `${bucketId}/${name}`, iat: now, exp: now + Math.floor(seconds) });
}

/**
 * One entry of POST /object/sign/:bucket's answer (storage-js createSignedUrls reads these).
 * @typedef {{ error: string | null, path: string, signedURL: string | null }} SignedUrlEntry
 */

/**
 * POST /object/sign/:bucket: signed URLs for the `paths` the caller may read; an error entry for the rest.
 * @param {StorageContext} ctx
 * @param {import('./context.mjs').Caller} caller
 * @param {string} bucketId
 * @param {ReadJson} readJson
 * @returns {Promise<SignedUrlEntry[]>}
 */
export async function signMany(ctx, caller, bucketId, readJson) {
  const b = fieldsOf(await readJson());
  const paths = Array.isArray(b.paths) ? b.paths.filter((/** @type {unknown} */ p) => typeof p === 'string') : null;
  if (!paths) throw storageError(400, 'InvalidRequest', 'body must have required property paths');
  const visible = await asCaller(ctx, caller(), OPERATIONS.signMany, async (tx) => {
    const r = await tx.query(`select name from storage.objects where bucket_id = $1 and name = any($2::text[])`, [
      bucketId,
      paths,
    ]);
    return new Set(r.rows.map((x) => /** @type {{ name: string }} */ (x).name));
  });
  return Promise.all(
    paths.map(async (/** @type {string} */ p) =>
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

/**
 * POST /object/sign/:bucket/*: a signed URL for an object the caller may read.
 * @param {StorageContext} ctx
 * @param {import('./context.mjs').Caller} caller
 * @param {string} bucketId
 * @param {string} name
 * @param {ReadJson} readJson
 * @returns {Promise<{ signedURL: string }>}
 */
export async function signOne(ctx, caller, bucketId, name, readJson) {
  validateKey(name);
  const b = fieldsOf(await readJson());
  const row = await findAsCaller(ctx, caller(), bucketId, name, OPERATIONS.sign);
  if (!row) throw notFound();
  return { signedURL: `/object/sign/${bucketId}/${name}?token=${await signToken(bucketId, name, b.expiresIn)}` };
}
