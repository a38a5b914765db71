// @ts-check
// Multipart uploads read as hosted Storage reads them. Hosted (supabase/storage,
// src/storage/uploader.ts fileUploadFromRequest) calls @fastify/multipart's request.file() with
// { fields: 10, files: 1 } and throwFileSizeLimit: false (src/http/routes/object/createObject.ts,
// updateObject.ts, uploadSignedObject.ts) and fileSize = the bucket's or the global limit; busboy
// parses underneath. This module does the same with busboy: it streams the request, resolves at
// the first file part with the fields sent before it, and hands over that file as a stream busboy
// cuts at fileSize (truncated() then says so), so no byte past the limit is ever held.
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';

/** The limits hosted Storage registers @fastify/multipart with; parts is @fastify/multipart's default. */
export const MULTIPART_LIMITS = Object.freeze({ fields: 10, files: 1, parts: 1000 });

/** A body hosted Storage reads no file from: it answers NoContentProvided (400 InvalidRequest) with this message. */
export class MultipartError extends Error {}

// busboy 1.6 words these differently from @fastify/busboy (its Dicer parser), which hosted runs.
/** @type {Record<string, string>} */
const HOSTED_WORDING = {
  'Unexpected end of form': 'Unexpected end of multipart data',
  'Unexpected end of file': 'Part terminated early due to unexpected end of multipart data',
};
const hostedError = (/** @type {Error} */ err) => new MultipartError(HOSTED_WORDING[err.message] ?? err.message);
/** The same end of data inside the file part, in the words Dicer gives the part. */
const fileCut = (/** @type {Error} */ err) => {
  const { message } = hostedError(err);
  return new MultipartError(
    message === 'Unexpected end of multipart data'
      ? 'Part terminated early due to unexpected end of multipart data'
      : message,
  );
};

/**
 * @typedef {object} MultipartFile
 * @property {string} mimeType The part's type as busboy reads it: `type/subtype` lower-cased, `text/plain` without one.
 * @property {string | undefined} filename
 * @property {Record<string, string>} fields The fields sent before the file. A name sent twice is absent: hosted reads
 *   `fields[name].value`, and fastify-multipart makes a repeated name an array.
 * @property {import('node:stream').Readable} stream The file's bytes, at most `fileSize` of them.
 * @property {() => boolean} truncated Whether the file was longer than `fileSize` (known once `stream` has ended).
 * @property {(...dest: NodeJS.WritableStream[]) => Promise<void>} pipeTo Streams the file through `dest`; a body that
 *   breaks off inside the file rejects with a MultipartError.
 * @property {() => void} discard Reads the rest of the request without keeping it (after a refusal).
 */

/**
 * One read in progress: what the request's handlers share until it settles.
 * @typedef {{
 *   req: import('node:http').IncomingMessage, bb: import('busboy').Busboy,
 *   resolve: (file: MultipartFile | null) => void, reject: (err: MultipartError) => void,
 *   fields: Map<string, string | null>, settled: boolean, sawData: boolean,
 *   pending: MultipartError | null, file: import('node:stream').Readable | null,
 * }} Read
 *   fields: null when a name was sent more than once. pending: what hosted reports only when
 *   no file follows.
 */

/** @param {Read} r */
const stopReading = (r) => {
  r.req.unpipe(r.bb);
  r.req.resume();
};

/**
 * @param {Read} r
 * @param {MultipartError} err
 */
function fail(r, err) {
  stopReading(r);
  if (r.settled) {
    // After the file was handed over, only a break inside the file itself matters.
    if (r.file && !r.file.readableEnded && !r.file.destroyed) r.file.destroy(fileCut(err));
    return;
  }
  r.settled = true;
  r.reject(err);
}

/** @param {Read} r */
function end(r) {
  if (r.settled) return;
  r.settled = true;
  if (r.pending) r.reject(r.pending);
  else r.resolve(null);
}

/**
 * The file part handed over, with the fields sent before it.
 * @param {Read} r
 * @param {import('node:stream').Readable} stream
 * @param {import('busboy').FileInfo} info
 * @returns {MultipartFile}
 */
function handOver(r, stream, info) {
  /** @type {Record<string, string>} */
  const before = Object.create(null);
  for (const [k, v] of r.fields) if (v !== null) before[k] = v;
  let broken = false;
  stream.on('error', () => {
    broken = true;
  });
  return {
    mimeType: info.mimeType,
    filename: info.filename,
    fields: before,
    stream,
    truncated: () => /** @type {any} */ (stream).truncated === true,
    pipeTo: async (...dest) => {
      try {
        await pipeline(stream, .../** @type {[NodeJS.WritableStream]} */ (dest));
      } catch (err) {
        throw broken ? fileCut(/** @type {Error} */ (err)) : err;
      }
    },
    discard: () => {
      if (!stream.readableEnded) stream.resume();
    },
  };
}

/**
 * Fields are collected until the first file part, which settles the read.
 * @param {Read} r
 */
function listen(r) {
  r.req.once('data', () => {
    r.sawData = true;
  });
  r.req.on('close', () => {
    if (!r.req.readableEnded)
      fail(r, new MultipartError('the request was closed before the multipart data was fully parsed'));
  });
  r.bb.on('field', (name, value) => {
    if (r.settled || name === undefined) return;
    if (name in Object.prototype) {
      r.pending = new MultipartError('prototype property is not allowed as field name');
      return;
    }
    r.fields.set(name, r.fields.has(name) ? null : value);
  });
  r.bb.on('file', (name, stream, info) => {
    if (r.settled || (name !== undefined && name in Object.prototype)) {
      if (!r.settled) r.pending = new MultipartError('prototype property is not allowed as field name');
      stream.resume();
      return;
    }
    r.settled = true;
    r.file = stream;
    r.resolve(handOver(r, stream, info));
  });
  const beforeFile = (/** @type {string} */ message) => () => {
    if (!r.settled) fail(r, new MultipartError(message));
  };
  r.bb.on('fieldsLimit', beforeFile('reach fields limit'));
  r.bb.on('partsLimit', beforeFile('reach parts limit'));
  // A second file is skipped by busboy (files: 1), as hosted never reads past the first.
  r.bb.on('error', (err) => {
    // An empty body is an empty form, not a broken one (as @fastify/multipart treats it).
    if (!r.sawData && /** @type {Error} */ (err).message === 'Unexpected end of form') end(r);
    else fail(r, hostedError(/** @type {Error} */ (err)));
  });
  r.bb.on('close', () => end(r));
}

/**
 * Reads a multipart/form-data request up to its first file part, as fastify-multipart's
 * request.file() does: fields before it are collected, fields and files after it are not read.
 * Resolves null when the body has no file part (hosted: 'No content provided'); rejects with a
 * MultipartError for a body hosted cannot parse (no boundary, broken framing, more than 10
 * fields or 1000 parts before the file, a field named like an Object.prototype property).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {{ fileSize: number }} limits
 * @returns {Promise<MultipartFile | null>}
 */
export function readMultipartFile(req, headers, { fileSize }) {
  return new Promise((resolve, reject) => {
    /** @type {import('busboy').Busboy} */
    let bb;
    try {
      bb = busboy({ headers, limits: { ...MULTIPART_LIMITS, fileSize } });
    } catch (err) {
      // No boundary, or a content type busboy cannot parse: nothing of the body is read.
      req.resume();
      reject(hostedError(/** @type {Error} */ (err)));
      return;
    }
    /** @type {Read} */
    const r = {
      req,
      bb,
      resolve,
      reject,
      fields: new Map(),
      settled: false,
      sawData: false,
      pending: null,
      file: null,
    };
    listen(r);
    req.pipe(bb);
  });
}
