// @ts-check
// The query grammar (src/PostgREST/ApiRequest/QueryParams.hs): select, order, filters with their
// operators, or/and logic trees, limit and offset. Parsing only; sql.mjs renders the result.
import { restError } from './errors.mjs';

/** The query-string keys that are not filters. */
export const RESERVED_PARAMS = new Set([
  'select',
  'order',
  'limit',
  'offset',
  'on_conflict',
  'columns',
  'or',
  'and',
  'not.or',
  'not.and',
]);

/** @typedef {{ column: string, alias: string | null, cast: string | null }} SelectItem */
/** @typedef {{ column: string, dir: string, nulls: string | null }} OrderItem */
/** @typedef {{ kind: 'cond', column: string, op: string, value: unknown, negate: boolean }} Condition */
/** @typedef {{ kind: string, items: FilterNode[], negate: boolean }} Logic */
/** @typedef {Condition | Logic} FilterNode */

/**
 * Quotes an identifier; refuses empty or NUL-containing names.
 * @param {unknown} name
 */
export function quoteIdent(name) {
  if (typeof name !== 'string' || name.length === 0 || name.length > 63 || name.includes('\0')) {
    throw restError(400, 'PGRST100', `"${String(name)}" is not a valid identifier`);
  }
  return `"${name.replaceAll('"', '""')}"`;
}

// A cast in `select` is spliced into SQL, so only a bare type name (optionally an array of
// it) from a short list is accepted: no spaces, quotes, parentheses or schema prefixes.
const CAST_RE = /^([a-z_][a-z0-9_]*)(\[\])?$/;
const CAST_TYPES = new Set([
  'text',
  'varchar',
  'int',
  'int2',
  'int4',
  'int8',
  'smallint',
  'integer',
  'bigint',
  'numeric',
  'float4',
  'float8',
  'real',
  'boolean',
  'bool',
  'uuid',
  'json',
  'jsonb',
  'date',
  'time',
  'timestamptz',
  'timestamp',
  'interval',
]);

/** The cast as it goes into SQL, or a PGRST100 400 when it is not a plain allowed type name. */
/** @param {string} cast */
export function validateCast(cast) {
  const m = CAST_RE.exec(cast);
  if (!m || !CAST_TYPES.has(/** @type {string} */ (m[1]))) {
    throw restError(
      400,
      'PGRST100',
      `failed to parse select parameter (invalid cast "${cast}")`,
      null,
      `Allowed casts: ${[...CAST_TYPES].join(', ')} (optionally with [])`,
    );
  }
  return cast;
}

/** How deeply `or=()` / `and=()` groups may nest (PostgREST's own parser has no need for more). */
export const MAX_LOGIC_DEPTH = 8;

/** Splits on `sep` at depth 0, honouring parentheses and double-quoted strings. */
/** @param {string} text */
export function splitTopLevel(text, sep = ',') {
  /** @type {string[]} */
  const out = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = /** @type {string} */ (text[i]);
    if (quoted) {
      current += ch;
      if (ch === '\\' && i + 1 < text.length) {
        current += text[++i];
      } else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (ch === sep && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

/** A name without its double quotes. @param {string} name */
export function unquote(name) {
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) return name.slice(1, -1).replaceAll('""', '"');
  return name;
}

/**
 * Parses `select=` into `[{ column, alias, cast }]` (`column` '*' for all). Embedded
 * resources and JSON paths are outside this stand-in's subset and answered 400.
 */
/**
 * @param {string | null} select
 * @returns {SelectItem[]}
 */
export function parseSelect(select) {
  const text = (select ?? '*').trim() || '*';
  return splitTopLevel(text).map((raw) => {
    const item = raw.trim();
    if (item === '*') return { column: '*', alias: null, cast: null };
    if (item.includes('(') || item.includes('->')) {
      throw restError(
        400,
        'PGRST100',
        `"${item}" in select is not supported by the local stand-in (no embedding or JSON paths)`,
      );
    }
    const m = /^(?:([^:]+):(?!:))?([^:]+)(?:::(.+))?$/.exec(item);
    if (!m) throw restError(400, 'PGRST100', `failed to parse select parameter (${item})`);
    const [, alias, column, cast] = m;
    return {
      column: unquote(/** @type {string} */ (column).trim()),
      alias: alias ? unquote(alias.trim()) : null,
      cast: cast === undefined ? null : validateCast(cast),
    };
  });
}

/** Parses `order=` into `[{ column, dir, nulls }]`. */
/**
 * @param {string | null} order
 * @returns {OrderItem[]}
 */
export function parseOrder(order) {
  if (!order) return [];
  return splitTopLevel(order).map((raw) => {
    const parts = raw.trim().split('.');
    const column = unquote(/** @type {string} */ (parts.shift()));
    let dir = 'asc';
    /** @type {string | null} */
    let nulls = null;
    for (const p of parts) {
      if (p === 'asc' || p === 'desc') dir = p;
      else if (p === 'nullsfirst') nulls = 'first';
      else if (p === 'nullslast') nulls = 'last';
      else throw restError(400, 'PGRST100', `failed to parse order (${raw})`);
    }
    return { column, dir, nulls };
  });
}

/** Parses an `in.(a,"b,c")` list. */
/** @param {string} value */
export function parseList(value) {
  if (!value.startsWith('(') || !value.endsWith(')'))
    throw restError(400, 'PGRST100', `failed to parse filter (in.${value})`);
  const inner = value.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner).map((v) => {
    const t = v.trim();
    if (t.startsWith('"') && t.endsWith('"') && t.length >= 2) return t.slice(1, -1).replace(/\\(.)/g, '$1');
    return t;
  });
}

/** @type {Record<string, string>} */
export const OPS = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
};

/**
 * Parses one filter `op.value` (with optional `not.`) on `column` into a tree node.
 * @param {string} column
 * @param {string} expr
 * @returns {Condition}
 */
export function parseCondition(column, expr) {
  let rest = expr;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  if (dot < 0) throw restError(400, 'PGRST100', `failed to parse filter (${expr})`);
  const op = rest.slice(0, dot);
  const value = rest.slice(dot + 1);
  if (op === 'in') return { kind: 'cond', column, op, value: parseList(value), negate };
  if (op === 'is') {
    const v = value.toLowerCase();
    if (!['null', 'not_null', 'true', 'false', 'unknown'].includes(v))
      throw restError(400, 'PGRST100', `failed to parse filter (is.${value})`);
    return { kind: 'cond', column, op, value: v, negate };
  }
  if (!(op in OPS)) throw restError(400, 'PGRST100', `failed to parse filter (${expr})`, `unknown operator "${op}"`);
  return { kind: 'cond', column, op, value, negate };
}

/** Parses an `or=(...)` / `and=(...)` group body into a tree (at most MAX_LOGIC_DEPTH deep). */
/**
 * @param {string} kind
 * @param {string} body
 * @returns {Logic}
 */
export function parseLogic(kind, body, negate = false, depth = 1) {
  if (depth > MAX_LOGIC_DEPTH) {
    throw restError(400, 'PGRST100', `failed to parse logic tree: nested more than ${MAX_LOGIC_DEPTH} levels deep`);
  }
  if (!body.startsWith('(') || !body.endsWith(')'))
    throw restError(400, 'PGRST100', `failed to parse logic tree (${body})`);
  const items = splitTopLevel(body.slice(1, -1)).map((raw) => {
    const item = raw.trim();
    const group = /^(not\.)?(or|and)(\(.*\))$/s.exec(item);
    if (group)
      return parseLogic(
        /** @type {string} */ (group[2]),
        /** @type {string} */ (group[3]),
        Boolean(group[1]),
        depth + 1,
      );
    const dot = item.indexOf('.');
    if (dot < 0) throw restError(400, 'PGRST100', `failed to parse logic tree (${item})`);
    return parseCondition(unquote(item.slice(0, dot)), item.slice(dot + 1));
  });
  return { kind, items, negate };
}

/** Reads every filter of a query string into a top-level `and` tree. */
/**
 * @param {URLSearchParams} searchParams
 * @returns {Logic}
 */
export function parseFilters(searchParams, exclude = RESERVED_PARAMS) {
  /** @type {FilterNode[]} */
  const items = [];
  for (const [key, value] of searchParams) {
    if (key === 'or' || key === 'and') items.push(parseLogic(key, value));
    else if (key === 'not.or' || key === 'not.and') items.push(parseLogic(key.slice(4), value, true));
    else if (!exclude.has(key)) items.push(parseCondition(unquote(key), value));
  }
  return { kind: 'and', items, negate: false };
}

/** A non-negative `limit` or `offset`, or null when absent. */
/**
 * @param {string | null} value
 * @param {string} name
 */
export function nonNegInt(value, name) {
  if (value == null) return null;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw restError(400, 'PGRST100', `"${value}" is not a valid ${name}`);
  return Number(value);
}
