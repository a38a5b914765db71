// Small HTTP helpers shared by the stand-in's services: body reading with a size cap, JSON
// answers, CORS, and an error type that carries the exact status and JSON body to send.

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

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Expose-Headers':
    'Content-Range, Content-Disposition, Content-Length, Content-Type, ETag, Location, Range-Unit, Preference-Applied, X-Total-Count, X-Supabase-Api-Version, Link',
  'Access-Control-Max-Age': '86400',
};

/** Answers a CORS preflight: allow whatever headers the browser asks for (supabase-js sends several). */
export function answerPreflight(req, res) {
  res.writeHead(204, {
    ...CORS_HEADERS,
    'Access-Control-Allow-Headers':
      req.headers['access-control-request-headers'] ||
      'authorization, x-client-info, apikey, content-type, x-upsert, prefer, accept-profile, content-profile, range, x-supabase-api-version, cache-control',
    Vary: 'Access-Control-Request-Headers',
  });
  res.end();
}

/**
 * Reads the whole request body, refusing more than `limit` bytes with a 413 (checked both
 * against Content-Length up front and while streaming, so a lying client cannot get past it).
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
    req.on('data', (chunk) => {
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
    req.on('error', (err) => {
      if (!failed) {
        failed = true;
        reject(err);
      }
    });
  });
}

/**
 * Parses a JSON body; an empty body is `fallback`. Invalid JSON throws `invalid()`.
 * @param {Buffer} buf
 */
export function parseJson(buf, invalid, fallback = undefined) {
  const text = buf.toString('utf8').trim();
  if (text === '') return fallback;
  try {
    return JSON.parse(text);
  } catch {
    throw invalid();
  }
}

export function sendJson(res, status, body, headers = {}) {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...CORS_HEADERS,
    ...(text ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendEmpty(res, status, headers = {}) {
  res.writeHead(status, { ...CORS_HEADERS, ...headers });
  res.end();
}

/** The bearer token of an Authorization header, or null. */
export function bearerToken(req) {
  const value = req.headers.authorization;
  if (typeof value !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? /** @type {string} */ (match[1]) : null;
}
