// @ts-check
// Renders the parsed query as SQL (src/PostgREST/Query/SqlFragment.hs): identifiers validated
// and always double-quoted, values always bound parameters, filters cast from text to the
// column's catalog type.
import { restError } from './errors.mjs';
import { OPS, quoteIdent } from './query.mjs';

/** @typedef {import('./schema-cache.mjs').Table} Table */

/** Accumulates bound parameters while SQL is built. */
export class Params {
  /** @type {unknown[]} */
  values = [];
  /** @param {unknown} value */
  add(value) {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The table's column, or PostgREST's 42703 for an unknown one.
 * @param {Table} table
 * @param {string} column
 */
function columnOf(table, column) {
  const col = table.columns.get(column);
  if (!col) throw restError(400, '42703', `column ${table.name}.${column} does not exist`);
  return col;
}

/**
 * One condition as SQL on alias `_t`: `eq.5` on an int and `eq.true` on a boolean compare correctly.
 * @param {import('./query.mjs').Condition} node
 * @param {Table} table
 * @param {Params} params
 */
function renderCondition(node, table, params) {
  const col = columnOf(table, node.column);
  const ref = `_t.${quoteIdent(node.column)}`;
  let sql;
  if (node.op === 'is') {
    sql = node.value === 'not_null' ? `${ref} is not null` : `${ref} is ${String(node.value)}`;
  } else if (node.op === 'in') {
    const values = /** @type {string[]} */ (node.value);
    sql =
      values.length === 0
        ? 'false'
        : `${ref} in (${values.map((v) => `(${params.add(v)}::text)::${col.type}`).join(', ')})`;
  } else if (node.op === 'like' || node.op === 'ilike') {
    sql = `${ref}::text ${OPS[node.op]} ${params.add(String(node.value).replaceAll('*', '%'))}::text`;
  } else if (node.op === 'match' || node.op === 'imatch') {
    sql = `${ref}::text ${OPS[node.op]} ${params.add(node.value)}::text`;
  } else {
    sql = `${ref} ${OPS[node.op]} (${params.add(node.value)}::text)::${col.type}`;
  }
  return node.negate ? `not (${sql})` : sql;
}

/**
 * Renders a filter tree as SQL on alias `_t`.
 * @param {import('./query.mjs').FilterNode} node
 * @param {Table} table
 * @param {Params} params
 * @returns {string}
 */
export function renderFilter(node, table, params) {
  if (node.kind === 'cond')
    return renderCondition(/** @type {import('./query.mjs').Condition} */ (node), table, params);
  const logic = /** @type {import('./query.mjs').Logic} */ (node);
  if (logic.items.length === 0) return logic.negate ? 'false' : 'true';
  const joined = logic.items
    .map((n) => `(${renderFilter(n, table, params)})`)
    .join(logic.kind === 'or' ? ' or ' : ' and ');
  return logic.negate ? `not (${joined})` : joined;
}

/**
 * @param {import('./query.mjs').SelectItem[]} items
 * @param {Table} table
 * @param {string} source
 */
export function renderSelectList(items, table, source) {
  return items
    .map((it) => {
      if (it.column === '*') return `${source}.*`;
      columnOf(table, it.column);
      let expr = `${source}.${quoteIdent(it.column)}`;
      if (it.cast) expr = `${expr}::${it.cast}`;
      return `${expr} as ${quoteIdent(it.alias ?? it.column)}`;
    })
    .join(', ');
}

/**
 * @param {import('./query.mjs').OrderItem[]} items
 * @param {Table} table
 */
export function renderOrder(items, table) {
  if (items.length === 0) return '';
  return ` order by ${items
    .map((o) => {
      columnOf(table, o.column);
      return `_t.${quoteIdent(o.column)} ${o.dir}${o.nulls ? ` nulls ${o.nulls}` : ''}`;
    })
    .join(', ')}`;
}

/**
 * The schema-qualified, quoted name.
 * @param {{ schema: string, name: string }} table
 */
export const qualified = (table) => `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`;
