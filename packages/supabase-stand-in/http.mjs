// @ts-check
// Small HTTP helpers shared by the stand-in's services: body reading with a size cap, JSON
// answers, the CORS headers, and an error type that carries the exact status and JSON body to send.

/** An error answered as `status` with `body` (already in the shape of the service that threw). */
export class HttpError extends Error {
  /**
   * @param {number} status
   * @param {unknown} body
   * @param {Record<string, string>} [headers]
   */
  constructor(status, body, headers = {}) {
    super(typeof body === 'object' && body && 'message' in body ? String(body.message) : `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/**
 * The CORS headers Kong's cors plugin puts on every answer of `supabase start` (gateway/cors.mjs
 * sets hono/cors to these), with the hosted platform's preflight max-age: an hour, as Supabase's
 * gateway guide states it for the platform (apps/docs/content/guides/self-hosting/
 * self-hosted-envoy.mdx, "CORS"). The browser keeps a preflight's answer that long, per address.
 */
export const CORS_HEADERS = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Expose-Headers':
    'Content-Range, Content-Disposition, Content-Length, Content-Type, ETag, Location, Range-Unit, Preference-Applied, X-Total-Count, X-Supabase-Api-Version, Link',
  'Access-Control-Max-Age': '3600',
});

/**
 * Reads the whole request body, refusing more than `limit` bytes with a 413 (checked both
 * against Content-Length up front and while streaming, so a lying client cannot get past it).
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @param {() => Error} [tooLarge]
 * @returns {Promise<Buffer>}
 */
export function readBody(req, limit, tooLarge = () => new HttpError(413, { message: 'Payload too large' })) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(tooLarge());
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    let failed = false;
    req.on('data', (/** @type {Buffer} */ chunk) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (/** @type {Error} */ err) => {
      if (!failed) {
        failed = true;
        reject(err);
      }
    });
  });
}

/**
 * How deeply request JSON may nest (arrays and objects). Deeper values would blow the stack of
 * JSON.stringify and of anything else that walks them recursively; no API here needs more.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * True when the JSON text nests arrays/objects more than `max` levels deep. One pass over the
 * characters, no recursion; brackets inside strings (escapes honoured) do not count.
 * @param {string} text
 * @param {number} [max]
 */
export function jsonTooDeep(text, max = MAX_JSON_DEPTH) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character; an unescaped quote ends the string.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Parses a JSON body; an empty body is `fallback`. Invalid JSON throws `invalid()`; JSON nested
 * deeper than MAX_JSON_DEPTH throws `tooDeep()` (by default `invalid()`, as Go's decoder in
 * GoTrue reports its depth limit as a parse error).
 * @param {Buffer} buf
 * @param {() => Error} invalid
 * @param {unknown} [fallback]
 * @param {() => Error} [tooDeep]
 */
export function parseJson(buf, invalid, fallback = undefined, tooDeep = invalid) {
  const text = buf.toString('utf8').trim();
  if (text === '') return fallback;
  if (jsonTooDeep(text)) throw tooDeep();
  try {
    return JSON.parse(text);
  } catch {
    throw invalid();
  }
}

/**
 * `value` when it can be sent as an HTTP header value as is (visible ASCII, space, tab), else
 * null. Node throws on control characters and on anything above U+00FF; latin-1 "obs-text" is
 * refused too, since it would not come back as the same string.
 * @param {unknown} value
 * @returns {string | null}
 */
export function headerValueOrNull(value) {
  return typeof value === 'string' && /^[\t\x20-\x7e]*$/.test(value) ? value : null;
}

/**
 * A Content-Disposition for downloading as `filename`: an ASCII fallback `filename="…"` (control,
 * non-ASCII, quote and backslash characters replaced by `_`) and the exact name as RFC 8187
 * `filename*=UTF-8''…` (every byte outside attr-char percent-encoded). Never throws, whatever
 * the string holds (lone surrogates become U+FFFD).
 * @param {string} filename
 */
export function attachmentDisposition(filename) {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  let encoded = '';
  for (const byte of Buffer.from(filename, 'utf8')) {
    const ch = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9!#$&+\-.^_`|~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A JSON answer as the stand-in's services send it: `application/json; charset=utf-8` and an
 * explicit Content-Length, which a HEAD answer keeps (hono drops a HEAD answer's body).
 * @param {number} status
 * @param {unknown} body  undefined: no body
 * @param {Record<string, string>} [headers]
 */
export function jsonResponse(status, body, headers = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return new Response(text === '' ? null : text, {
    status,
    headers: {
      ...(text ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
      'Content-Length': String(Buffer.byteLength(text)),
      ...headers,
    },
  });
}

/**
 * The bearer token of an Authorization header, or null.
 * @param {import('node:http').IncomingMessage} req
 */
export function bearerToken(req) {
  const value = req.headers.authorization;
  if (typeof value !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? /** @type {string} */ (match[1]) : null;
}
