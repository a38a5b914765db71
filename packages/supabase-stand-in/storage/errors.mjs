// @ts-check
// storage-api's error answers: `{ statusCode, error, message, code }` with the HTTP status hosted
// Storage's error handler gives them (supabase/storage src/internal/errors/codes.ts ERRORS,
// src/internal/errors/storage-error.ts render, src/http/error-handler.ts setErrorHandler).
import { HttpError } from '../http.mjs';
import { JwtError } from '../keys.mjs';

/**
 * The `error` hosted Storage still sends beside some codes for older clients (codes.ts ERRORS:
 * the entries given an `error:`); every other code is sent as its own `error`
 * (error-handler.ts: `error: error.error || renderableError.code`).
 * @type {Readonly<Record<string, string>>}
 */
const LEGACY_ERROR = Object.freeze({
  NoSuchBucket: 'Bucket not found',
  NoSuchKey: 'not_found',
  AccessDenied: 'Unauthorized',
  ResourceAlreadyExists: 'Duplicate',
  KeyAlreadyExists: 'Duplicate',
  InvalidMimeType: 'invalid_mime_type',
  InvalidRange: 'invalid_range',
  EntityTooLarge: 'Payload too large',
  InvalidBucketName: 'Invalid Input',
});

/**
 * A storage-api error. `code` is hosted's ErrorCode (codes.ts), which supabase-js reads as
 * `error.code` (StorageApiError). As hosted Storage's error handler renders its errors, the HTTP
 * status is 400 whatever the status in the body (404, 409, 413, 415, 403…), and 500 stays 500
 * (storage-error.ts sets userStatusCode so, error-handler.ts sends it). The body's keys are in the
 * order hosted's routes serialize them (src/http/schemas/error.ts errorSchema): statusCode,
 * error, message, code.
 * @param {number} status  the error's own status, sent in the body as `statusCode`
 * @param {string} code  hosted's ErrorCode
 * @param {string} message
 * @param {string} [statusCode]  the body's statusCode when it is not `status`
 */
export function storageError(status, code, message, statusCode = String(status)) {
  const error = LEGACY_ERROR[code] ?? code;
  return new HttpError(status >= 500 ? status : 400, { statusCode, error, message, code });
}

/** codes.ts ERRORS.NoSuchKey: HTTP 400, statusCode '404'. */
export const notFound = () => storageError(404, 'NoSuchKey', 'Object not found');
/** codes.ts ERRORS.EntityTooLarge. */
export const tooLarge = () => storageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size');
/** codes.ts ERRORS.NoSuchBucket: HTTP 400, statusCode '404'. */
export const noSuchBucket = () => storageError(404, 'NoSuchBucket', 'Bucket not found');
/**
 * A duplicate where hosted writes the row through createObject (uploads, copies, signed upload
 * URLs): src/storage/database/pg.ts createObject turns ResourceAlreadyExists into KeyAlreadyExists.
 * @param {unknown} err
 */
export const asKeyAlreadyExists = (err) =>
  err instanceof HttpError && /** @type {{ code?: string }} */ (err.body)?.code === 'ResourceAlreadyExists'
    ? storageError(409, 'KeyAlreadyExists', 'The resource already exists')
    : err;

/**
 * What hosted Storage says of a JWT it cannot verify: jose's own message (src/internal/auth/jwt.ts
 * verifyJWT passes it on), for the stand-in's JwtError reasons (keys.mjs).
 * @param {unknown} e
 */
export function joseMessage(e) {
  const reason = e instanceof JwtError ? e.reason : 'malformed';
  if (reason === 'expired') return '"exp" claim timestamp check failed';
  if (reason === 'signature') return 'signature verification failed';
  if (reason === 'claims') {
    const claim = /(\w+) must be a number/.exec(String(/** @type {Error} */ (e).message))?.[1];
    return claim ? `"${claim}" claim must be a number` : '"nbf" claim timestamp check failed';
  }
  return 'Invalid Compact JWS';
}
