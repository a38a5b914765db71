// @ts-check
// storage-api's error answers: `{ statusCode, error, message }` with the HTTP status hosted
// Storage's error handler gives them (supabase/storage src/storage/errors.ts, src/http/error-handler.ts).
import { HttpError } from '../http.mjs';

/**
 * A storage-api shaped error: `{ statusCode, error, message }`. As hosted Storage's error handler
 * renders its errors, the HTTP status is 400 whatever the code in the body (404, 409, 413, 415,
 * 403…), and 500 stays 500 (src/internal/errors/storage-error.ts sets userStatusCode so,
 * src/http/error-handler.ts sends it).
 * @param {number} status  the error's own status, sent in the body as `statusCode`
 * @param {string} error
 * @param {string} message
 */
export function storageError(status, error, message, statusCode = String(status)) {
  return new HttpError(status >= 500 ? status : 400, { statusCode, error, message });
}

export const notFound = () => storageError(404, 'not_found', 'Object not found');
export const notFoundInBody = () => storageError(400, 'not_found', 'Object not found', '404');
export const tooLarge = () => storageError(413, 'Payload too large', 'The object exceeded the maximum allowed size');

/** Hosted Storage's NoSuchBucket as its error handler renders it: HTTP 400, statusCode '404'. */
export const noSuchBucket = () =>
  new HttpError(400, {
    statusCode: '404',
    code: 'NoSuchBucket',
    error: 'Bucket not found',
    message: 'Bucket not found',
  });
