// The PostgREST subset supabase-js sends (select, filters, order, limit/offset, single and
// maybe-single objects, insert/upsert/update/delete with Prefer modes, rpc). Every statement
// runs through `withClaims`, i.e. in its own transaction as the caller's role with the
// caller's JWT claims, so grants and RLS decide what it may see and change.
//
// SQL is built from identifiers that are validated and always double-quoted, and values that
// are always bound parameters (filters cast from text to the column's catalog type).
import { HttpError } from './http.mjs';
import { isPgError, pgErrorBody, statusForPgCode } from './pg-errors.mjs';

const EXPOSED_SCHEMAS = ['public'];
const RESERVED_PARAMS = new Set([
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
const OBJECT_MEDIA = 'application/vnd.pgrst.object+json';

/** A PostgREST-shaped 4xx. */
export function restError(status, code, message, details = null, hint = null) {
  return new HttpError(status, { code, details, hint, message });
}

/** Quotes an identifier; refuses empty or NUL-containing names. */
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

function unquote(name) {
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) return name.slice(1, -1).replaceAll('""', '"');
  return name;
}

/**
 * Parses `select=` into `[{ column, alias, cast }]` (`column` '*' for all). Embedded
 * resources and JSON paths are outside this stand-in's subset and answered 400.
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
export function parseOrder(order) {
  if (!order) return [];
  return splitTopLevel(order).map((raw) => {
    const parts = raw.trim().split('.');
    const column = unquote(/** @type {string} */ (parts.shift()));
    let dir = 'asc';
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

const OPS = {
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
 * @returns {{ kind: 'cond', column: string, op: string, value: unknown, negate: boolean }}
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
export function parseFilters(searchParams, exclude = RESERVED_PARAMS) {
  /** @type {any[]} */
  const items = [];
  for (const [key, value] of searchParams) {
    if (key === 'or' || key === 'and') items.push(parseLogic(key, value));
    else if (key === 'not.or' || key === 'not.and') items.push(parseLogic(key.slice(4), value, true));
    else if (!exclude.has(key)) items.push(parseCondition(unquote(key), value));
  }
  return { kind: 'and', items, negate: false };
}

/** Accumulates bound parameters while SQL is built. */
class Params {
  /** @type {unknown[]} */
  values = [];
  add(value) {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Renders a filter tree as SQL on alias `_t`. Values are bound as text and cast to the
 * column's catalog type, so `eq.5` on an int and `eq.true` on a boolean compare correctly.
 */
function renderFilter(node, table, params) {
  if (node.kind === 'cond') {
    const col = table.columns.get(node.column);
    if (!col) throw restError(400, '42703', `column ${table.name}.${node.column} does not exist`);
    const ref = `_t.${quoteIdent(node.column)}`;
    let sql;
    if (node.op === 'is') {
      sql = node.value === 'not_null' ? `${ref} is not null` : `${ref} is ${node.value}`;
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
  if (node.items.length === 0) return node.negate ? 'false' : 'true';
  const joined = node.items
    .map((n) => `(${renderFilter(n, table, params)})`)
    .join(node.kind === 'or' ? ' or ' : ' and ');
  return node.negate ? `not (${joined})` : joined;
}

function renderSelectList(items, table, source) {
  return items
    .map((it) => {
      if (it.column === '*') return `${source}.*`;
      if (!table.columns.has(it.column))
        throw restError(400, '42703', `column ${table.name}.${it.column} does not exist`);
      let expr = `${source}.${quoteIdent(it.column)}`;
      if (it.cast) expr = `${expr}::${it.cast}`;
      return `${expr} as ${quoteIdent(it.alias ?? it.column)}`;
    })
    .join(', ');
}

function renderOrder(items, table) {
  if (items.length === 0) return '';
  return ` order by ${items
    .map((o) => {
      if (!table.columns.has(o.column))
        throw restError(400, '42703', `column ${table.name}.${o.column} does not exist`);
      return `_t.${quoteIdent(o.column)} ${o.dir}${o.nulls ? ` nulls ${o.nulls}` : ''}`;
    })
    .join(', ')}`;
}

function parsePrefer(req) {
  const header = [req.headers.prefer].flat().filter(Boolean).join(',');
  /** @type {Record<string, string>} */
  const prefer = {};
  for (const part of header.split(',')) {
    const [k, v] = part.split('=').map((s) => s.trim());
    if (k) prefer[k] = v ?? '';
  }
  return prefer;
}

function nonNegInt(value, name) {
  if (value == null) return null;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw restError(400, 'PGRST100', `"${value}" is not a valid ${name}`);
  return Number(value);
}

/** Reads tables' and functions' catalog shape, cached (the schema does not change while serving). */
export class SchemaCache {
  constructor(db) {
    this.db = db;
    /** @type {Map<string, any>} */
    this.tables = new Map();
  }

  /** @returns {Promise<{ schema: string, name: string, columns: Map<string, { type: string, udt: string }>, pk: string[] } | null>} */
  async table(schema, name) {
    // Postgres text cannot hold NUL, so no relation has such a name: not found, without asking.
    if (schema.includes('\0') || name.includes('\0')) return null;
    const key = `${schema}.${name}`;
    if (this.tables.has(key)) return this.tables.get(key);
    const cols = await this.db.query(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, t.typname as udt, c.oid::int as oid
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
         join pg_type t on t.oid = a.atttypid
        where n.nspname = $1 and c.relname = $2 and a.attnum > 0 and not a.attisdropped
          and c.relkind in ('r', 'v', 'm', 'p', 'f')
        order by a.attnum`,
      [schema, name],
    );
    if (cols.rows.length === 0) return null;
    const oid = cols.rows[0].oid;
    const pk = await this.db.query(
      `select a.attname as name from pg_index i
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = $1::int::oid and i.indisprimary order by array_position(i.indkey, a.attnum)`,
      [oid],
    );
    const info = {
      schema,
      name,
      columns: new Map(cols.rows.map((r) => [r.name, { type: r.type, udt: r.udt }])),
      pk: pk.rows.map((r) => r.name),
    };
    this.tables.set(key, info);
    return info;
  }

  async functions(schema, name) {
    if (schema.includes('\0') || name.includes('\0')) return [];
    const res = await this.db.query(
      `select p.proretset as retset, t.typtype as rettyptype, p.prorettype = 'void'::regtype as void,
              coalesce(p.proargnames, '{}'::text[]) as argnames, coalesce(p.proargmodes::text[], '{}'::text[]) as argmodes,
              array(select format_type(x, null) from unnest(p.proargtypes) as x) as argtypes,
              p.pronargs as nargs, p.pronargdefaults as ndefaults
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type t on t.oid = p.prorettype
        where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'`,
      [schema, name],
    );
    return res.rows;
  }
}

/**
 * @param {{ db: any, withClaims: Function, schema: SchemaCache }} deps
 */
export function createRestService({ db, withClaims, schema }) {
  function profileOf(req, write) {
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

  /** A Postgres error as PostgREST answers it (status by SQLSTATE and role); anything else as is. */
  function asRestError(err, claims) {
    if (!isPgError(err)) return err;
    const authed = Boolean(claims && claims.role && claims.role !== 'anon');
    return new HttpError(statusForPgCode(err.code, authed), pgErrorBody(err));
  }

  async function run(claims, fn) {
    try {
      return await withClaims(db, claims, fn);
    } catch (err) {
      throw asRestError(err, claims);
    }
  }

  function wantsObject(req) {
    return String(req.headers.accept ?? '').includes(OBJECT_MEDIA);
  }

  /** Sends a JSON array text, or its single element when the object media type was asked for. */
  function sendRows(status, bodyText, count, req, extraHeaders = {}) {
    let text = bodyText;
    let type = 'application/json; charset=utf-8';
    if (wantsObject(req)) {
      const rows = JSON.parse(bodyText);
      if (rows.length !== 1) throw singleError(rows.length);
      text = JSON.stringify(rows[0]);
      type = `${OBJECT_MEDIA}; charset=utf-8`;
    }
    return { status, text, type, count, headers: extraHeaders };
  }

  function singleError(n) {
    return restError(
      406,
      'PGRST116',
      'JSON object requested, multiple (or no) rows returned',
      `The result contains ${n} rows`,
    );
  }

  async function tableOr404(schemaName, name) {
    const table = await schema.table(schemaName, name);
    if (!table) {
      throw restError(404, 'PGRST205', `Could not find the table '${schemaName}.${name}' in the schema cache`);
    }
    return table;
  }

  async function select(req, claims, table, url, head) {
    const params = new Params();
    const cols = renderSelectList(parseSelect(url.searchParams.get('select')), table, '_t');
    const where = renderFilter(parseFilters(url.searchParams), table, params);
    const order = renderOrder(parseOrder(url.searchParams.get('order')), table);
    const limit = nonNegInt(url.searchParams.get('limit'), 'limit');
    const offset = nonNegInt(url.searchParams.get('offset'), 'offset') ?? 0;
    const from = `${quoteIdent(table.schema)}.${quoteIdent(table.name)} as _t`;
    let sql = `select coalesce(json_agg(_s), '[]'::json)::text as body, count(*)::int as n from (select ${cols} from ${from} where ${where}${order}`;
    if (limit != null) sql += ` limit ${limit}`;
    if (offset) sql += ` offset ${offset}`;
    sql += ') as _s';
    const prefer = parsePrefer(req);
    const exact = prefer.count === 'exact' || prefer.count === 'planned' || prefer.count === 'estimated';
    const { body, n, total } = await run(claims, async (tx) => {
      const r = await tx.query(sql, params.values);
      let total = null;
      if (exact) {
        const c = await tx.query(`select count(*)::int as n from ${from} where ${where}`, params.values);
        total = c.rows[0].n;
      }
      return { body: r.rows[0].body, n: r.rows[0].n, total };
    });
    const range = n > 0 ? `${offset}-${offset + n - 1}/${total ?? '*'}` : `*/${total ?? '*'}`;
    const out = sendRows(200, body, total, req, { 'Content-Range': range });
    if (head) out.text = '';
    return out;
  }

  function checkColumns(table, names) {
    for (const name of names) {
      if (!table.columns.has(name)) {
        throw restError(400, 'PGRST204', `Could not find the '${name}' column of '${table.name}' in the schema cache`);
      }
    }
  }

  /** Wraps a data-modifying statement per `Prefer: return=`. */
  async function write(req, claims, table, url, statement, params, okStatus) {
    const prefer = parsePrefer(req);
    const representation = prefer.return === 'representation';
    const object = wantsObject(req);
    const selectItems = parseSelect(url.searchParams.get('select'));
    return run(claims, async (tx) => {
      if (representation) {
        const cols = renderSelectList(selectItems, table, '_w');
        const r = await tx.query(
          `with _w as (${statement} returning _t.*) select coalesce(json_agg(_s), '[]'::json)::text as body, count(*)::int as n from (select ${cols} from _w) as _s`,
          params.values,
        );
        const { body, n } = r.rows[0];
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

  async function insert(req, claims, table, url, body) {
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
    if (rows.length === 0)
      return {
        status: 201,
        text: prefer.return === 'representation' ? '[]' : '',
        type: 'application/json; charset=utf-8',
        count: null,
        headers: {},
      };
    const params = new Params();
    const qualified = `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`;
    const list = names.map(quoteIdent).join(', ');
    const payload = params.add(JSON.stringify(rows));
    // Objects without keys ({} / [{}, {}]) insert one all-defaults row each: a zero-column
    // select into the table with no column list, so the one bound parameter is always used.
    let statement = names.length
      ? `insert into ${qualified} as _t (${list}) select ${list} from json_populate_recordset(null::${qualified}, ${payload}::json)`
      : `insert into ${qualified} as _t select from json_array_elements(${payload}::json)`;
    const resolution = prefer.resolution;
    if (resolution === 'merge-duplicates' || resolution === 'ignore-duplicates') {
      const conflict = url.searchParams.get('on_conflict');
      const target = conflict ? splitTopLevel(conflict).map((c) => unquote(c.trim())) : table.pk;
      if (target.length === 0)
        throw restError(400, 'PGRST100', 'on_conflict is required for a table without a primary key');
      checkColumns(table, target);
      const targetSql = target.map(quoteIdent).join(', ');
      // Like PostgREST, the update sets every payload column, conflict columns included, so
      // column-level UPDATE grants apply exactly as on the hosted stack.
      if (resolution === 'ignore-duplicates' || names.length === 0)
        statement += ` on conflict (${targetSql}) do nothing`;
      else
        statement += ` on conflict (${targetSql}) do update set ${names.map((n) => `${quoteIdent(n)} = excluded.${quoteIdent(n)}`).join(', ')}`;
    }
    return write(req, claims, table, url, statement, params, 201);
  }

  async function update(req, claims, table, url, body) {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw restError(400, 'PGRST102', 'Empty or invalid json');
    const names = Object.keys(body);
    checkColumns(table, names);
    if (names.length === 0) return { status: 204, text: '', type: null, count: null, headers: {} };
    const params = new Params();
    const qualified = `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`;
    const payload = params.add(JSON.stringify(body));
    const where = renderFilter(parseFilters(url.searchParams), table, params);
    const sets = names.map((n) => `${quoteIdent(n)} = _r.${quoteIdent(n)}`).join(', ');
    const statement = `update ${qualified} as _t set ${sets} from json_populate_record(null::${qualified}, ${payload}::json) as _r where ${where}`;
    return write(req, claims, table, url, statement, params, 204);
  }

  async function remove(req, claims, table, url) {
    const params = new Params();
    const qualified = `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`;
    const where = renderFilter(parseFilters(url.searchParams), table, params);
    return write(req, claims, table, url, `delete from ${qualified} as _t where ${where}`, params, 204);
  }

  async function rpc(req, claims, schemaName, name, body) {
    // PostgREST reads the arguments from a JSON object (or array); any other top-level value
    // (an empty body, null, a number, a string, a boolean) its payload parser truncates to an
    // empty payload, so the function is looked up without arguments: a 404 PGRST202 when it
    // needs some, a normal call when it has none.
    const args = body && typeof body === 'object' ? /** @type {Record<string, unknown>} */ (body) : {};
    const candidates = await schema.functions(schemaName, name);
    const keys = Object.keys(args);
    const fn = candidates.find((c) => {
      const inNames = c.argnames.slice(0, c.nargs);
      if (c.nargs === 1 && !inNames[0] && /^jsonb?$/.test(c.argtypes[0])) return true;
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
    const params = new Params();
    const qualified = `${quoteIdent(schemaName)}.${quoteIdent(name)}`;
    let call;
    let from = '(select 1) as _a';
    if (fn.nargs === 1 && !fn.argnames[0] && /^jsonb?$/.test(fn.argtypes[0])) {
      call = `${qualified}(${params.add(JSON.stringify(args))}::${fn.argtypes[0]})`;
    } else if (keys.length > 0) {
      const defs = keys.map((k) => `${quoteIdent(k)} ${fn.argtypes[fn.argnames.indexOf(k)]}`).join(', ');
      from = `json_to_record(${params.add(JSON.stringify(args))}::json) as _a(${defs})`;
      call = `${qualified}(${keys.map((k) => `${quoteIdent(k)} => _a.${quoteIdent(k)}`).join(', ')})`;
    } else call = `${qualified}()`;
    const setLike = fn.retset || fn.rettyptype === 'c';
    return run(claims, async (tx) => {
      if (fn.void) {
        await tx.query(`select ${call} from ${from}`, params.values);
        return { status: 204, text: '', type: null, count: null, headers: {} };
      }
      if (setLike) {
        const r = await tx.query(
          `select coalesce(json_agg(_r), '[]'::json)::text as body from ${from} cross join lateral ${call} as _r`,
          params.values,
        );
        let text = r.rows[0].body;
        if (!fn.retset) text = JSON.stringify(JSON.parse(text)[0] ?? null);
        else if (wantsObject(req)) {
          const rows = JSON.parse(text);
          if (rows.length !== 1) throw singleError(rows.length);
          text = JSON.stringify(rows[0]);
        }
        return { status: 200, text, type: 'application/json; charset=utf-8', count: null, headers: {} };
      }
      const r = await tx.query(`select to_json(${call})::text as body from ${from}`, params.values);
      return {
        status: 200,
        text: r.rows[0]?.body ?? 'null',
        type: 'application/json; charset=utf-8',
        count: null,
        headers: {},
      };
    });
  }

  /** GET /rest/v1/: the (empty) OpenAPI description. */
  function openApi() {
    return {
      status: 200,
      text: JSON.stringify({ swagger: '2.0', info: { title: 'local stand-in', version: '0' }, paths: {} }),
      type: 'application/json',
      headers: {},
    };
  }

  /**
   * /rpc/<name>: POST takes the arguments as JSON (`body`), GET and HEAD from the query string.
   * @param {import('node:http').IncomingMessage} req
   * @param {any} claims
   * @param {string} name
   * @param {URL} url
   * @param {unknown} [body]  POST only
   */
  async function callFunction(req, claims, name, url, body) {
    if (req.method === 'POST') return rpc(req, claims, profileOf(req, true), name, body);
    /** @type {Record<string, string>} */
    const args = {};
    for (const [k, v] of url.searchParams) if (!RESERVED_PARAMS.has(k)) args[k] = v;
    const out = await rpc(req, claims, profileOf(req, false), name, args);
    if (req.method === 'HEAD') out.text = '';
    return out;
  }

  /**
   * The table or view a request names, in the schema its profile header picks (a 404 for an
   * unknown one, whatever the method).
   * @param {import('node:http').IncomingMessage} req
   * @param {string} name
   */
  function tableFor(req, name) {
    return tableOr404(profileOf(req, !['GET', 'HEAD'].includes(req.method ?? 'GET')), name);
  }

  // Each answers `{ status, text, type, headers }` or throws HttpError; a Postgres error raised
  // outside `run` (a catalog lookup, say) goes through asRestError for PostgREST's status and body.
  return { openApi, callFunction, tableFor, select, insert, update, remove, asRestError };
}
