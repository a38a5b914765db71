// @ts-check
// An upload's body, read as hosted Storage reads it (supabase/storage src/storage/uploader.ts
// fileUploadFromRequest): multipart with its fields, or raw with its headers; and the user
// metadata a request sends in `x-metadata`.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { jsonTooDeep, MAX_JSON_DEPTH, parseJson, readBody } from '../http.mjs';
import { MultipartError, readMultipartFile } from '../multipart.mjs';
import { storageError } from './errors.mjs';

/**
 * What an upload needs of its body: its type, cache control, user metadata and the length the
 * permission test sees; `save` writes the bytes to a file, `discard` drops them after a refusal.
 * @typedef {{
 *   mime: string, cacheControl: string, userMetadata: unknown, contentLength: number | undefined,
 *   discard: () => void, save: (file: string) => Promise<{ size: number, md5: string }>,
 * }} UploadBody
 */

/**
 * The user metadata a request sends base64-encoded in `x-metadata`, or null without one.
 * @param {import('node:http').IncomingMessage} req
 * @returns {unknown}
 */
export function metadataHeader(req) {
  if (!req.headers['x-metadata']) return null;
  return parseJson(
    Buffer.from(String(req.headers['x-metadata']), 'base64'),
    () => storageError(400, 'InvalidRequest', 'x-metadata is not JSON'),
    null,
    () => storageError(400, 'InvalidRequest', `x-metadata is nested more than ${MAX_JSON_DEPTH} levels deep`),
  );
}

/**
 * A raw upload: the whole body is the file, read into memory up to the limit; its type,
 * cache control and user metadata come from headers.
 * @param {import('node:http').IncomingMessage} req
 * @param {string} contentType
 * @param {number} limit
 * @param {() => Error} tooLarge
 * @returns {Promise<UploadBody>}
 */
export async function rawBody(req, contentType, limit, tooLarge) {
  const bytes = await readBody(req, limit, tooLarge);
  if (bytes.length > limit) throw tooLarge();
  return {
    mime: contentType,
    cacheControl: String(req.headers['cache-control'] ?? 'max-age=3600'),
    userMetadata: req.headers['x-metadata'] ? metadataHeader(req) : null,
    contentLength: bytes.length,
    discard: () => {},
    save: async (file) => {
      await writeFile(file, bytes);
      return { size: bytes.length, md5: createHash('md5').update(bytes).digest('hex') };
    },
  };
}

/**
 * @param {unknown} err
 * @returns {unknown}
 */
const asStorageError = (err) =>
  err instanceof MultipartError ? storageError(400, 'InvalidRequest', err.message) : err;

/**
 * The `metadata` (or `userMetadata`) field as JSON; hosted ignores one that does not parse.
 * @param {import('../multipart.mjs').MultipartFile} form
 * @returns {unknown}
 */
function formMetadata(form) {
  const raw = form.fields.metadata ?? form.fields.userMetadata;
  if (raw === undefined) return null;
  if (jsonTooDeep(raw)) {
    form.discard();
    throw storageError(400, 'InvalidRequest', `metadata is nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * Streams the form's file to `file`, counting and hashing it; a file cut at the limit is a 413.
 * @param {import('../multipart.mjs').MultipartFile} form
 * @param {string} file
 * @param {() => Error} tooLarge
 */
async function saveForm(form, file, tooLarge) {
  const hash = createHash('md5');
  let size = 0;
  const count = new Transform({
    transform(chunk, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await form.pipeTo(count, createWriteStream(file));
  } catch (err) {
    throw asStorageError(err);
  }
  if (form.truncated()) throw tooLarge();
  return { size, md5: hash.digest('hex') };
}

/**
 * A multipart upload, read as hosted Storage reads it (uploader.ts fileUploadFromRequest): the
 * first file part is the file; of the fields sent before it, `contentType` overrides the
 * part's type, `cacheControl` gives `max-age=<value>` (else `no-cache`), and `metadata` (or
 * `userMetadata`) is JSON user metadata, ignored when it does not parse. The permission test
 * sees the request's Content-Length, framing included. The file streams to disk only after
 * that test, cut by busboy at the limit: a longer file is a 413 once its part has been read.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @param {() => Error} tooLarge
 * @returns {Promise<UploadBody>}
 */
export async function multipartBody(req, limit, tooLarge) {
  let form;
  try {
    form = await readMultipartFile(req, req.headers, { fileSize: limit });
  } catch (err) {
    throw asStorageError(err);
  }
  if (!form) throw storageError(400, 'InvalidRequest', 'No content provided');
  const userMetadata = formMetadata(form);
  const { fields } = form;
  const declared = Number(req.headers['content-length']);
  const saved = form;
  return {
    mime: fields.contentType || form.mimeType,
    cacheControl: fields.cacheControl ? `max-age=${fields.cacheControl}` : 'no-cache',
    userMetadata,
    contentLength: Number.isFinite(declared) && declared >= 0 ? declared : undefined,
    discard: form.discard,
    save: (file) => saveForm(saved, file, tooLarge),
  };
}
