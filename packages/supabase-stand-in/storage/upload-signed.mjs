// @ts-check
// Signed upload URLs: POST /object/upload/sign/:bucket/* signs one, PUT with its token uploads
// (supabase/storage src/http/routes/object/getSignedUploadURL.ts, uploadSignedObject.ts).
import { readBody } from '../http.mjs';
import { signJwt, verifyJwt } from '../keys.mjs';
import { metadataHeader } from './bodies.mjs';
import { bucketOr404, OPERATIONS, ownerOf } from './context.mjs';
import { joseMessage, storageError, tooLarge } from './errors.mjs';
import { validateKey } from './names.mjs';
import { canUpload, upload } from './objects-write.mjs';

/** @typedef {import('./context.mjs').StorageContext} StorageContext */

/** How long a signed upload URL lives: hosted Storage's default (UPLOAD_SIGNED_URL_EXPIRATION_TIME). */
export const UPLOAD_SIGNED_URL_EXPIRES_IN = 2 * 60 * 60;

/**
 * The token's scope claim, or the legacy rule: a token with an `upsert` claim is an upload token.
 * @param {Record<string, unknown>} p
 */
const isUploadToken = (p) => p.scope === 'upload' || (p.scope === undefined && 'upsert' in p);

/**
 * POST /object/upload/sign/:bucket/*: as hosted, the insert (or, with x-upsert, the upsert)
 * is tested as the caller now, with the metadata this request itself carries (its
 * Content-Type and Content-Length: supabase-js sends application/json and 2), and the token
 * records the owner, the path and upsert. Nothing is written.
 * @param {StorageContext} ctx
 * @param {import('node:http').IncomingMessage} req
 * @param {import('./context.mjs').Claims} claims
 * @param {string} bucketId
 * @param {string} name
 * @returns {Promise<{ url: string, token: string }>}
 */
export async function signUploadUrl(ctx, req, claims, bucketId, name) {
  await bucketOr404(ctx, bucketId);
  validateKey(name);
  // The request's own body means nothing here; read it (bounded) and drop it.
  await readBody(req, 64 * 1024, tooLarge);
  const upsert = req.headers['x-upsert'] === 'true';
  const userMetadata = metadataHeader(req);
  const declaredLength = req.headers['content-length'];
  const metadata = {
    mimetype: req.headers['content-type'],
    contentLength: declaredLength === undefined ? undefined : Number(declaredLength),
  };
  const owner = ownerOf(claims);
  await canUpload(ctx, claims, OPERATIONS.signUploadUrl, upsert, [
    bucketId,
    name,
    owner,
    JSON.stringify(metadata),
    userMetadata == null ? null : JSON.stringify(userMetadata),
    '1',
  ]);
  const now = Math.floor(Date.now() / 1000);
  const url = `${bucketId}/${name}`;
  const token = await signJwt({
    owner: owner ?? undefined,
    url,
    upsert,
    scope: 'upload',
    iat: now,
    exp: now + UPLOAD_SIGNED_URL_EXPIRES_IN,
  });
  return { url: `/object/upload/sign/${url}?token=${token}`, token };
}

/**
 * The upload token's claims, or storage-api's error for a missing, broken or expired one.
 * @param {string | null} token
 */
async function uploadTokenClaims(token) {
  if (!token) throw storageError(400, 'InvalidRequest', "querystring must have required property 'token'");
  try {
    return await verifyJwt(token);
  } catch (e) {
    throw storageError(400, 'InvalidJWT', joseMessage(e));
  }
}

/**
 * The claims of an upload token for exactly `bucketId/name` (src/storage/object.ts
 * verifyObjectSignature with the upload scope), or storage-api's error: a token that does not
 * verify, one scoped for downloads, one for another path.
 * @param {string | null} token
 * @param {string} bucketId
 * @param {string} name
 */
export async function verifyUploadToken(token, bucketId, name) {
  const payload = await uploadTokenClaims(token);
  if (!isUploadToken(payload)) throw storageError(400, 'InvalidSignature', 'Token is not scoped for upload');
  if (payload.url !== `${bucketId}/${name}`) throw storageError(400, 'InvalidSignature', 'Invalid signature');
  return payload;
}

/**
 * PUT /object/upload/sign/:bucket/*?token=: no caller needed; the token must be an upload
 * token for exactly this path and unexpired. Hosted Storage then uploads as its super user
 * (no RLS; the policy was tested at signing), with the token's owner and upsert, and the
 * bucket's size and type limits applied as on any upload.
 * @param {StorageContext} ctx
 * @param {import('node:http').IncomingMessage} req
 * @param {URL} url
 * @param {string} bucketId
 * @param {string} name
 * @returns {Promise<{ Key: string }>}
 */
export async function uploadSigned(ctx, req, url, bucketId, name) {
  await bucketOr404(ctx, bucketId);
  validateKey(name);
  const payload = await verifyUploadToken(url.searchParams.get('token'), bucketId, name);
  const owner = typeof payload.owner === 'string' ? payload.owner : null;
  const out = await upload(ctx, req, {
    claims: { role: 'service_role' },
    bucketId,
    name,
    upsert: payload.upsert === true,
    operation: OPERATIONS.uploadSigned,
    owner,
  });
  return { Key: out.Key };
}
