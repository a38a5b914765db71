// @ts-check
// The schema cache (src/PostgREST/SchemaCache.hs): tables' columns and primary keys and
// functions' signatures, read from the catalog once (the schema does not change while serving).

/** @typedef {{ type: string, udt: string }} Column */
/** @typedef {{ schema: string, name: string, columns: Map<string, Column>, pk: string[] }} Table */
/**
 * @typedef {{
 *   retset: boolean, rettyptype: string, void: boolean, argnames: string[], argmodes: string[],
 *   argtypes: string[], nargs: number, ndefaults: number,
 * }} RoutineRow
 */

export class SchemaCache {
  /** @param {Pick<import('@electric-sql/pglite').PGlite, 'query'>} db */
  constructor(db) {
    this.db = db;
    /** @type {Map<string, Table | null>} */
    this.tables = new Map();
  }

  /**
   * @param {string} schema
   * @param {string} name
   * @returns {Promise<Table | null>}
   */
  async table(schema, name) {
    // Postgres text cannot hold NUL, so no relation has such a name: not found, without asking.
    if (schema.includes('\0') || name.includes('\0')) return null;
    const key = `${schema}.${name}`;
    const cached = this.tables.get(key);
    if (cached) return cached;
    /** @type {import('@electric-sql/pglite').Results<{ name: string, type: string, udt: string, oid: number }>} */
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
    const first = cols.rows[0];
    if (!first) return null;
    /** @type {import('@electric-sql/pglite').Results<{ name: string }>} */
    const pk = await this.db.query(
      `select a.attname as name from pg_index i
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = $1::int::oid and i.indisprimary order by array_position(i.indkey, a.attnum)`,
      [first.oid],
    );
    /** @type {Table} */
    const info = {
      schema,
      name,
      columns: new Map(cols.rows.map((r) => [r.name, { type: r.type, udt: r.udt }])),
      pk: pk.rows.map((r) => r.name),
    };
    this.tables.set(key, info);
    return info;
  }

  /**
   * @param {string} schema
   * @param {string} name
   * @returns {Promise<RoutineRow[]>}
   */
  async functions(schema, name) {
    if (schema.includes('\0') || name.includes('\0')) return [];
    /** @type {import('@electric-sql/pglite').Results<RoutineRow>} */
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
