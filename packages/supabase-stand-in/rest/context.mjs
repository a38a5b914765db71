// @ts-check
// What every /rest/v1 module is given, explicitly: the database, `withClaims` (each statement in
// its own transaction as the caller's role with the caller's JWT claims, so grants and RLS decide,
// as PostgREST's src/PostgREST/App.hs does) and the schema cache. Also the request facts each
// handler reads: the profile headers, Prefer, and the object media type.
import { asRestError, restError } from './errors.mjs';

/** @typedef {import('../db.mjs').Claims} Claims */
/** @typedef {import('node:http').IncomingMessage} Req */

/**
 * @typedef {{
 *   db: import('@electric-sql/pglite').PGlite,
 *   withClaims: typeof import('../db.mjs').withClaims,
 *   schema: import('./schema-cache.mjs').SchemaCache,
 * }} RestContext
 */

/**
 * A handler's answer: the text (empty for none) with its media type and the headers PostgREST sets.
 * @typedef {{ status: number, text: string, type: string | null, count: number | null, headers: Record<string, string> }} RestAnswer
 */

export const EXPOSED_SCHEMAS = ['public'];
export const OBJECT_MEDIA = 'application/vnd.pgrst.object+json';
export const JSON_MEDIA = 'application/json; charset=utf-8';

/**
 * @param {RestContext} ctx
 * @returns {RestContext}
 */
export const createRestContext = (ctx) => ctx;

/**
 * The schema the Accept-Profile (reads) or Content-Profile (writes) header picks; 406 PGRST106
 * for one that is not exposed.
 * @param {Req} req
 * @param {boolean} write
 */
export function profileOf(req, write) {
  const header = req.headers[write ? 'content-profile' : 'accept-profile'];
  const name = typeof header === 'string' && header ? header : 'public';
  if (!EXPOSED_SCHEMAS.includes(name)) {
    throw restError(
      406,
      'PGRST106',
      'Invalid schema: ' + name,
      null,
      `Only the following schemas are exposed: ${EXPOSED_SCHEMAS.join(', ')}`,
    );
  }
  return name;
}

/**
 * The Prefer header's `key=value` parts.
 * @param {Req} req
 */
export function parsePrefer(req) {
  const header = [req.headers.prefer].flat().filter(Boolean).join(',');
  /** @type {Record<string, string>} */
  const prefer = {};
  for (const part of header.split(',')) {
    const [k, v] = part.split('=').map((s) => s.trim());
    if (k) prefer[k] = v ?? '';
  }
  return prefer;
}

/** @param {Req} req */
export const wantsObject = (req) => String(req.headers.accept ?? '').includes(OBJECT_MEDIA);

/**
 * Runs `fn` as the caller; a Postgres error becomes PostgREST's answer.
 * @template T
 * @param {RestContext} ctx
 * @param {Claims} claims
 * @param {(tx: import('@electric-sql/pglite').Transaction) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function run(ctx, claims, fn) {
  try {
    return await ctx.withClaims(ctx.db, claims, fn);
  } catch (err) {
    throw asRestError(err, claims);
  }
}

/**
 * The table or view a request names, in the schema its profile header picks (a 404 PGRST205 for
 * an unknown one, whatever the method).
 * @param {RestContext} ctx
 * @param {Req} req
 * @param {string} name
 */
export async function tableFor(ctx, req, name) {
  const schemaName = profileOf(req, !['GET', 'HEAD'].includes(req.method ?? 'GET'));
  const table = await ctx.schema.table(schemaName, name);
  if (!table) {
    throw restError(404, 'PGRST205', `Could not find the table '${schemaName}.${name}' in the schema cache`);
  }
  return table;
}
