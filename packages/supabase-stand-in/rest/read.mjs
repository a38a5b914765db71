// @ts-check
// GET and HEAD on a table or view (src/PostgREST/Query/Statements.hs's read statement): the
// select list, filters, order, limit/offset, Prefer: count=, Content-Range, and the single-object
// media type.
import { JSON_MEDIA, OBJECT_MEDIA, parsePrefer, run, wantsObject } from './context.mjs';
import { singleError } from './errors.mjs';
import { nonNegInt, parseFilters, parseOrder, parseSelect } from './query.mjs';
import { Params, qualified, renderFilter, renderOrder, renderSelectList } from './sql.mjs';

/**
 * A JSON array text as the answer, or its single element when the object media type was asked for.
 * @param {number} status
 * @param {string} bodyText
 * @param {number | null} count
 * @param {import('./context.mjs').Req} req
 * @param {Record<string, string>} [headers]
 * @returns {import('./context.mjs').RestAnswer}
 */
export function sendRows(status, bodyText, count, req, headers = {}) {
  if (!wantsObject(req)) return { status, text: bodyText, type: JSON_MEDIA, count, headers };
  /** @type {unknown[]} */
  const rows = JSON.parse(bodyText);
  if (rows.length !== 1) throw singleError(rows.length);
  return { status, text: JSON.stringify(rows[0]), type: `${OBJECT_MEDIA}; charset=utf-8`, count, headers };
}

/**
 * @param {import('./context.mjs').RestContext} ctx
 * @param {import('./context.mjs').Req} req
 * @param {import('./context.mjs').Claims} claims
 * @param {import('./schema-cache.mjs').Table} table
 * @param {URL} url
 * @param {boolean} head
 */
export async function select(ctx, req, claims, table, url, head) {
  const params = new Params();
  const cols = renderSelectList(parseSelect(url.searchParams.get('select')), table, '_t');
  const where = renderFilter(parseFilters(url.searchParams), table, params);
  const order = renderOrder(parseOrder(url.searchParams.get('order')), table);
  const limit = nonNegInt(url.searchParams.get('limit'), 'limit');
  const offset = nonNegInt(url.searchParams.get('offset'), 'offset') ?? 0;
  const from = `${qualified(table)} as _t`;
  let sql = `select coalesce(json_agg(_s), '[]'::json)::text as body, count(*)::int as n from (select ${cols} from ${from} where ${where}${order}`;
  if (limit != null) sql += ` limit ${limit}`;
  if (offset) sql += ` offset ${offset}`;
  sql += ') as _s';
  const prefer = parsePrefer(req);
  const exact = prefer.count === 'exact' || prefer.count === 'planned' || prefer.count === 'estimated';
  const { body, n, total } = await run(ctx, claims, async (tx) => {
    /** @type {import('@electric-sql/pglite').Results<{ body: string, n: number }>} */
    const r = await tx.query(sql, params.values);
    /** @type {number | null} */
    let total = null;
    if (exact) {
      /** @type {import('@electric-sql/pglite').Results<{ n: number }>} */
      const c = await tx.query(`select count(*)::int as n from ${from} where ${where}`, params.values);
      total = c.rows[0]?.n ?? 0;
    }
    const row = /** @type {{ body: string, n: number }} */ (r.rows[0]);
    return { body: row.body, n: row.n, total };
  });
  const range = n > 0 ? `${offset}-${offset + n - 1}/${total ?? '*'}` : `*/${total ?? '*'}`;
  const out = sendRows(200, body, total, req, { 'Content-Range': range });
  if (head) out.text = '';
  return out;
}
