// @ts-check
// What the API gateway (Kong, on `supabase start`) does in front of every service, and the small
// pieces the route modules share: the request's URL and Node request, its JSON body under a cap.
import { bearerToken, HttpError, parseJson, readBody } from '../http.mjs';
import { verifyJwt } from '../keys.mjs';

/**
 * The hono environment of every route group: the Node request and response (@hono/node-server's
 * HttpBindings) and the request's URL as the app parsed it.
 * @typedef {{ Bindings: import('@hono/node-server').HttpBindings, Variables: { url: URL } }} Env
 */
/** @typedef {import('hono').Context<Env>} Ctx */

/** How much JSON a request may send to auth, REST or storage's JSON routes. */
export const JSON_LIMIT = 1024 * 1024;

/** Kong's answer when no route matches. */
export const NO_ROUTE = Object.freeze({ message: 'no Route matched with those values' });

/**
 * The request's URL, parsed as the services have always read it (dot segments resolved, the
 * path still percent-encoded); set by the app for every request.
 * @param {import('hono').Context<any>} c
 * @returns {URL}
 */
export const urlOf = (c) => c.get('url');

/**
 * The Node request (@hono/node-server's HttpBindings): the services read headers and stream
 * bodies from it.
 * @param {import('hono').Context<any>} c
 * @returns {import('node:http').IncomingMessage}
 */
export const nodeRequest = (c) => c.env.incoming;

/**
 * The still-encoded path after a service's mount point, without its leading slash.
 * @param {import('hono').Context<any>} c
 * @param {string} mount
 */
export function subPath(c, mount) {
  return urlOf(c).pathname.slice(mount.length).replace(/^\//, '');
}

/**
 * Kong's answers when the API key is missing or not signed with the project secret.
 * @param {boolean} missing
 */
function keyError(missing) {
  return new HttpError(401, {
    message: missing ? 'No API key found in request' : 'Invalid authentication credentials',
  });
}

/**
 * The API key (apikey header / query, else the bearer token) verified like Kong would.
 * @param {import('node:http').IncomingMessage} req
 * @param {URL} url
 */
export async function requireApiKey(req, url) {
  const key = req.headers.apikey ?? url.searchParams.get('apikey') ?? bearerToken(req);
  if (typeof key !== 'string' || key === '') throw keyError(true);
  try {
    await verifyJwt(key);
  } catch {
    throw keyError(false);
  }
}

/**
 * Reads the request body as JSON (empty: undefined) under JSON_LIMIT, with the service's own
 * errors for a body too large or not JSON.
 * @param {import('node:http').IncomingMessage} req
 * @param {{ tooLarge: () => Error, bad: () => Error }} invalid
 */
export function jsonReader(req, invalid) {
  return async () =>
    parseJson(await readBody(req, JSON_LIMIT, () => invalid.tooLarge()), () => invalid.bad(), undefined);
}

/**
 * A GET route that does not answer HEAD: hono matches HEAD against GET routes, but these
 * services (GoTrue, most storage routes) do not, so HEAD goes on to the routes after it.
 * @param {import('hono').Handler} handler
 * @returns {import('hono').Handler}
 */
export const getOnly = (handler) => (c, next) => (c.req.method === 'HEAD' ? next() : handler(c, next));
