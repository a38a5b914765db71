// @ts-check
// CORS as Kong's cors plugin answers it in front of `supabase start`, on hono/cors: any origin,
// the requested headers echoed back on a preflight, the headers supabase-js reads exposed.
import { cors } from 'hono/cors';
import { CORS_HEADERS } from '../http.mjs';

// One string each, so hono/cors sends them exactly as written (it joins list entries with ",").
const ALLOW_METHODS = CORS_HEADERS['Access-Control-Allow-Methods'];
const EXPOSE_HEADERS = CORS_HEADERS['Access-Control-Expose-Headers'];
const MAX_AGE = Number(CORS_HEADERS['Access-Control-Max-Age']);
/** Allowed on a preflight that names no headers: the ones supabase-js sends. */
const DEFAULT_ALLOW_HEADERS =
  'authorization, x-client-info, apikey, content-type, x-upsert, prefer, accept-profile, content-profile, range, x-supabase-api-version, cache-control';

/**
 * The gateway's CORS middleware. A preflight (OPTIONS) is answered 204 here and goes no further;
 * every other answer gets Allow-Origin `*` and the exposed headers (hono/cors), plus the allowed
 * methods and max-age the stand-in has always sent on them.
 * @returns {import('hono').MiddlewareHandler}
 */
export function kongCors() {
  const hono = cors({ origin: '*', allowMethods: [ALLOW_METHODS], exposeHeaders: [EXPOSE_HEADERS], maxAge: MAX_AGE });
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') {
      const preflight = /** @type {Response} */ (await hono(c, next));
      // Kong echoes the requested headers as sent (hono/cors would re-join them without spaces)
      // and varies on them even when none were asked for.
      // hono copies c.res's headers onto the answer, so both get the values.
      for (const headers of [preflight.headers, c.res.headers]) {
        headers.set(
          'Access-Control-Allow-Headers',
          c.req.header('access-control-request-headers') || DEFAULT_ALLOW_HEADERS,
        );
        headers.set('Vary', 'Access-Control-Request-Headers');
      }
      return preflight;
    }
    c.header('Access-Control-Allow-Methods', ALLOW_METHODS);
    c.header('Access-Control-Max-Age', String(MAX_AGE));
    return hono(c, next);
  };
}
