// @ts-check
// /rpc/<name> (src/PostgREST/Query/Statements.hs's call statement and the routine lookup in
// src/PostgREST/SchemaCache.hs): POST takes the arguments as JSON, GET and HEAD from the query
// string; a function with one unnamed json/jsonb argument takes the whole payload. Also the
// (empty) OpenAPI description at the root.
import { JSON_MEDIA, profileOf, run, wantsObject } from './context.mjs';
import { restError, singleError } from './errors.mjs';
import { quoteIdent, RESERVED_PARAMS } from './query.mjs';
import { Params } from './sql.mjs';

/** @typedef {import('./schema-cache.mjs').RoutineRow} RoutineRow */
/** @typedef {import('./context.mjs').RestAnswer} RestAnswer */

/** @param {RoutineRow} fn */
const takesWholePayload = (fn) => fn.nargs === 1 && !fn.argnames[0] && /^jsonb?$/.test(fn.argtypes[0] ?? '');

/**
 * The overload the argument names fit, or a 404 PGRST202.
 * @param {import('./context.mjs').RestContext} ctx
 * @param {string} schemaName
 * @param {string} name
 * @param {string[]} keys
 */
async function findRoutine(ctx, schemaName, name, keys) {
  const candidates = await ctx.schema.functions(schemaName, name);
  const fn = candidates.find((c) => {
    const inNames = c.argnames.slice(0, c.nargs);
    if (takesWholePayload(c)) return true;
    const required = inNames.slice(0, c.nargs - c.ndefaults);
    return keys.every((k) => inNames.includes(k)) && required.every((k) => keys.includes(k));
  });
  if (!fn) {
    throw restError(
      404,
      'PGRST202',
      `Could not find the function ${schemaName}.${name}(${keys.join(', ')}) in the schema cache`,
      `Searched for the function ${schemaName}.${name} with parameters ${keys.join(', ') || 'without parameters'}`,
    );
  }
  return fn;
}

/**
 * The call expression and the FROM it reads its arguments from, with the bound parameters.
 * @param {RoutineRow} fn
 * @param {string} schemaName
 * @param {string} name
 * @param {Record<string, unknown>} args
 */
function callSql(fn, schemaName, name, args) {
  const params = new Params();
  const routine = `${quoteIdent(schemaName)}.${quoteIdent(name)}`;
  const keys = Object.keys(args);
  if (takesWholePayload(fn)) {
    return {
      params,
      from: '(select 1) as _a',
      call: `${routine}(${params.add(JSON.stringify(args))}::${fn.argtypes[0]})`,
    };
  }
  if (keys.length === 0) return { params, from: '(select 1) as _a', call: `${routine}()` };
  const defs = keys.map((k) => `${quoteIdent(k)} ${fn.argtypes[fn.argnames.indexOf(k)]}`).join(', ');
  const from = `json_to_record(${params.add(JSON.stringify(args))}::json) as _a(${defs})`;
  const call = `${routine}(${keys.map((k) => `${quoteIdent(k)} => _a.${quoteIdent(k)}`).join(', ')})`;
  return { params, from, call };
}

/**
 * Calls the routine as the caller: 204 for void, an array for a set, one value otherwise.
 * @param {import('./context.mjs').RestContext} ctx
 * @param {import('./context.mjs').Req} req
 * @param {import('./context.mjs').Claims} claims
 * @param {string} schemaName
 * @param {string} name
 * @param {unknown} body
 * @returns {Promise<RestAnswer>}
 */
async function rpc(ctx, req, claims, schemaName, name, body) {
  // PostgREST reads the arguments from a JSON object (or array); any other top-level value
  // (an empty body, null, a number, a string, a boolean) its payload parser truncates to an
  // empty payload, so the function is looked up without arguments: a 404 PGRST202 when it
  // needs some, a normal call when it has none.
  const args = body && typeof body === 'object' ? /** @type {Record<string, unknown>} */ (body) : {};
  const fn = await findRoutine(ctx, schemaName, name, Object.keys(args));
  const { params, from, call } = callSql(fn, schemaName, name, args);
  return run(ctx, claims, async (tx) => {
    if (fn.void) {
      await tx.query(`select ${call} from ${from}`, params.values);
      return { status: 204, text: '', type: null, count: null, headers: {} };
    }
    if (fn.retset || fn.rettyptype === 'c') {
      /** @type {import('@electric-sql/pglite').Results<{ body: string }>} */
      const r = await tx.query(
        `select coalesce(json_agg(_r), '[]'::json)::text as body from ${from} cross join lateral ${call} as _r`,
        params.values,
      );
      /** @type {unknown[]} */
      const rows = JSON.parse(r.rows[0]?.body ?? '[]');
      let text = r.rows[0]?.body ?? '[]';
      if (!fn.retset) text = JSON.stringify(rows[0] ?? null);
      else if (wantsObject(req)) {
        if (rows.length !== 1) throw singleError(rows.length);
        text = JSON.stringify(rows[0]);
      }
      return { status: 200, text, type: JSON_MEDIA, count: null, headers: {} };
    }
    /** @type {import('@electric-sql/pglite').Results<{ body: string | null }>} */
    const r = await tx.query(`select to_json(${call})::text as body from ${from}`, params.values);
    return { status: 200, text: r.rows[0]?.body ?? 'null', type: JSON_MEDIA, count: null, headers: {} };
  });
}

/**
 * /rpc/<name>: POST takes the arguments as JSON (`body`), GET and HEAD from the query string.
 * @param {import('./context.mjs').RestContext} ctx
 * @param {import('./context.mjs').Req} req
 * @param {import('./context.mjs').Claims} claims
 * @param {string} name
 * @param {URL} url
 * @param {unknown} [body]  POST only
 */
export async function callFunction(ctx, req, claims, name, url, body) {
  if (req.method === 'POST') return rpc(ctx, req, claims, profileOf(req, true), name, body);
  /** @type {Record<string, string>} */
  const args = {};
  for (const [k, v] of url.searchParams) if (!RESERVED_PARAMS.has(k)) args[k] = v;
  const out = await rpc(ctx, req, claims, profileOf(req, false), name, args);
  if (req.method === 'HEAD') out.text = '';
  return out;
}

/**
 * GET /rest/v1/: the (empty) OpenAPI description.
 * @returns {RestAnswer}
 */
export function openApi() {
  const text = JSON.stringify({ swagger: '2.0', info: { title: 'local stand-in', version: '0' }, paths: {} });
  return { status: 200, text, type: 'application/json', count: null, headers: {} };
}
