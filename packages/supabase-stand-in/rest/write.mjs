// @ts-check
// POST, PATCH and DELETE on a table (src/PostgREST/Query/Statements.hs's mutate statement and
// src/PostgREST/ApiRequest/Preferences.hs): insert and upsert (Prefer: resolution=), update,
// delete, each answered per Prefer: return= and the single-object media type.
import { JSON_MEDIA, parsePrefer, run, wantsObject } from './context.mjs';
import { restError, singleError } from './errors.mjs';
import { parseFilters, parseSelect, quoteIdent, splitTopLevel, unquote } from './query.mjs';
import { sendRows } from './read.mjs';
import { Params, qualified, renderFilter, renderSelectList } from './sql.mjs';

/** @typedef {import('./context.mjs').RestContext} RestContext */
/** @typedef {import('./context.mjs').Req} Req */
/** @typedef {import('./context.mjs').Claims} Claims */
/** @typedef {import('./schema-cache.mjs').Table} Table */
/** @typedef {import('./context.mjs').RestAnswer} RestAnswer */

/**
 * PGRST204 for a payload or conflict column the table does not have.
 * @param {Table} table
 * @param {string[]} names
 */
function checkColumns(table, names) {
  for (const name of names) {
    if (!table.columns.has(name)) {
      throw restError(400, 'PGRST204', `Could not find the '${name}' column of '${table.name}' in the schema cache`);
    }
  }
}

/**
 * Runs a data-modifying statement and answers per `Prefer: return=`.
 * @param {RestContext} ctx
 * @param {Req} req
 * @param {Claims} claims
 * @param {Table} table
 * @param {URL} url
 * @param {string} statement
 * @param {Params} params
 * @param {number} okStatus
 * @returns {Promise<RestAnswer>}
 */
async function write(ctx, req, claims, table, url, statement, params, okStatus) {
  const representation = parsePrefer(req).return === 'representation';
  const object = wantsObject(req);
  const selectItems = parseSelect(url.searchParams.get('select'));
  return run(ctx, claims, async (tx) => {
    if (representation) {
      const cols = renderSelectList(selectItems, table, '_w');
      /** @type {import('@electric-sql/pglite').Results<{ body: string, n: number }>} */
      const r = await tx.query(
        `with _w as (${statement} returning _t.*) select coalesce(json_agg(_s), '[]'::json)::text as body, count(*)::int as n from (select ${cols} from _w) as _s`,
        params.values,
      );
      const { body, n } = /** @type {{ body: string, n: number }} */ (r.rows[0]);
      if (object && n !== 1) throw singleError(n);
      return sendRows(okStatus === 204 ? 200 : okStatus, body, null, req, {
        'Content-Range': n ? `0-${n - 1}/*` : '*/*',
      });
    }
    const r = await tx.query(statement, params.values);
    const n = r.affectedRows ?? 0;
    if (object && n !== 1) throw singleError(n);
    return {
      status: okStatus,
      text: '',
      type: null,
      count: null,
      headers: { 'Content-Range': n ? `0-${n - 1}/*` : '*/*' },
    };
  });
}

/**
 * The ON CONFLICT clause for Prefer: resolution=merge-duplicates / ignore-duplicates, or ''.
 * Like PostgREST, the update sets every payload column, conflict columns included, so
 * column-level UPDATE grants apply exactly as on the hosted stack.
 * @param {Table} table
 * @param {URL} url
 * @param {string | undefined} resolution
 * @param {string[]} names
 */
function onConflict(table, url, resolution, names) {
  if (resolution !== 'merge-duplicates' && resolution !== 'ignore-duplicates') return '';
  const conflict = url.searchParams.get('on_conflict');
  const target = conflict ? splitTopLevel(conflict).map((c) => unquote(c.trim())) : table.pk;
  if (target.length === 0)
    throw restError(400, 'PGRST100', 'on_conflict is required for a table without a primary key');
  checkColumns(table, target);
  const targetSql = target.map(quoteIdent).join(', ');
  if (resolution === 'ignore-duplicates' || names.length === 0) return ` on conflict (${targetSql}) do nothing`;
  return ` on conflict (${targetSql}) do update set ${names.map((n) => `${quoteIdent(n)} = excluded.${quoteIdent(n)}`).join(', ')}`;
}

/**
 * POST: one object or an array of them; `columns=` limits the payload's keys.
 * @param {RestContext} ctx
 * @param {Req} req
 * @param {Claims} claims
 * @param {Table} table
 * @param {URL} url
 * @param {unknown} body
 * @returns {Promise<RestAnswer>}
 */
export async function insert(ctx, req, claims, table, url, body) {
  const rows = Array.isArray(body) ? body : [body];
  if (rows.some((r) => !r || typeof r !== 'object' || Array.isArray(r))) {
    throw restError(400, 'PGRST102', 'All object keys must match');
  }
  const fromParam = url.searchParams.get('columns');
  const names = fromParam
    ? splitTopLevel(fromParam).map((c) => unquote(c.trim()))
    : [...new Set(rows.flatMap((r) => Object.keys(r)))];
  checkColumns(table, names);
  const prefer = parsePrefer(req);
  if (rows.length === 0) {
    const text = prefer.return === 'representation' ? '[]' : '';
    return { status: 201, text, type: JSON_MEDIA, count: null, headers: {} };
  }
  const params = new Params();
  const target = qualified(table);
  const list = names.map(quoteIdent).join(', ');
  const payload = params.add(JSON.stringify(rows));
  // Objects without keys ({} / [{}, {}]) insert one all-defaults row each: a zero-column
  // select into the table with no column list, so the one bound parameter is always used.
  const statement = names.length
    ? `insert into ${target} as _t (${list}) select ${list} from json_populate_recordset(null::${target}, ${payload}::json)`
    : `insert into ${target} as _t select from json_array_elements(${payload}::json)`;
  const conflict = onConflict(table, url, prefer.resolution, names);
  return write(ctx, req, claims, table, url, statement + conflict, params, 201);
}

/**
 * PATCH: the body's columns set on every row the filters match.
 * @param {RestContext} ctx
 * @param {Req} req
 * @param {Claims} claims
 * @param {Table} table
 * @param {URL} url
 * @param {unknown} body
 * @returns {Promise<RestAnswer>}
 */
export async function update(ctx, req, claims, table, url, body) {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw restError(400, 'PGRST102', 'Empty or invalid json');
  const names = Object.keys(body);
  checkColumns(table, names);
  if (names.length === 0) return { status: 204, text: '', type: null, count: null, headers: {} };
  const params = new Params();
  const target = qualified(table);
  const payload = params.add(JSON.stringify(body));
  const where = renderFilter(parseFilters(url.searchParams), table, params);
  const sets = names.map((n) => `${quoteIdent(n)} = _r.${quoteIdent(n)}`).join(', ');
  const statement = `update ${target} as _t set ${sets} from json_populate_record(null::${target}, ${payload}::json) as _r where ${where}`;
  return write(ctx, req, claims, table, url, statement, params, 204);
}

/**
 * DELETE: every row the filters match.
 * @param {RestContext} ctx
 * @param {Req} req
 * @param {Claims} claims
 * @param {Table} table
 * @param {URL} url
 * @returns {Promise<RestAnswer>}
 */
export async function remove(ctx, req, claims, table, url) {
  const params = new Params();
  const where = renderFilter(parseFilters(url.searchParams), table, params);
  return write(ctx, req, claims, table, url, `delete from ${qualified(table)} as _t where ${where}`, params, 204);
}
