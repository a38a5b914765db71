// @ts-check
// postgres_changes (supabase/realtime lib/extensions/postgres_cdc_rls/, and the database's
// realtime.apply_rls): changes arrive from the `_local_realtime` triggers by NOTIFY; each is
// delivered to a subscriber only if selecting the row as that subscriber (their role and JWT
// claims, so RLS decides) returns it, with only the columns the role may select.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { quoteIdent } from '../rest/query.mjs';
import { send } from './context.mjs';
import { closeExpired, tokenExpired } from './expiry.mjs';

/** @typedef {import('./context.mjs').RealtimeContext} RealtimeContext */
/** @typedef {import('../rest/schema-cache.mjs').Table} Table */
/** @typedef {Record<string, unknown>} Row */
/**
 * A change as the `_local_realtime` trigger notifies it.
 * @typedef {{ type: 'INSERT' | 'UPDATE' | 'DELETE', schema: string, table: string, commit_timestamp: string,
 *   record?: Row | null, old_record?: Row | null, truncated?: boolean }} Change
 */
/** @typedef {import('@supabase/realtime-js').RealtimePostgresChangesPayload<Row>} ClientPayload */
/**
 * The `data` of a postgres_changes frame: what realtime-js turns into its payload (eventType, new,
 * old, …) plus the raw fields it also reads (type, columns, record, old_record).
 * @typedef {{
 *   schema: ClientPayload['schema'], table: ClientPayload['table'], commit_timestamp: ClientPayload['commit_timestamp'],
 *   eventType: ClientPayload['eventType'], type: ClientPayload['eventType'],
 *   columns: { name: string, type: string }[],
 *   record: Row | undefined, old_record: Row | undefined,
 *   new: Row, old: Row, errors: ClientPayload['errors'] | null,
 * }} ChangeData
 */

const FILTER_RE = /^([^=]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s;

/**
 * Whether a record passes a realtime filter such as `user_id=eq.123`.
 * @param {string | undefined} filter
 * @param {Row | null | undefined} record
 */
export function matchesFilter(filter, record) {
  if (!filter) return true;
  const m = FILTER_RE.exec(filter);
  if (!m || !record) return false;
  const [, column, op, value] = /** @type {[string, string, string, string]} */ (/** @type {unknown} */ (m));
  const actual = record[column];
  const text =
    actual === null || actual === undefined
      ? null
      : typeof actual === 'object'
        ? JSON.stringify(actual)
        : String(actual);
  if (op === 'in') {
    const list = value
      .replace(/^\(|\)$/g, '')
      .split(',')
      .map((s) => s.trim());
    return text !== null && list.includes(text);
  }
  if (text === null) return false;
  if (op === 'eq') return text === value;
  if (op === 'neq') return text !== value;
  const a = Number(text);
  const b = Number(value);
  const [x, y] = Number.isFinite(a) && Number.isFinite(b) ? [a, b] : [text, value];
  if (op === 'lt') return x < y;
  if (op === 'lte') return x <= y;
  if (op === 'gt') return x > y;
  return x >= y;
}

/**
 * The columns of a table the role may select, as hosted `realtime.apply_rls` reads them
 * (has_column_privilege ... 'SELECT'). Asked as the superuser, once per change and role.
 * @param {RealtimeContext} ctx
 * @param {string} role
 * @param {Table} table
 */
async function selectable(ctx, role, table) {
  /** @type {import('@electric-sql/pglite').Results<{ columns: string[] }>} */
  const r = await ctx.db.query(
    `select coalesce(array_agg(a.attname::text order by a.attnum)
               filter (where has_column_privilege($1, a.attrelid, a.attnum, 'SELECT')), '{}') as columns
     from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where c.oid = (quote_ident($2) || '.' || quote_ident($3))::regclass`,
    [role, table.schema, table.name],
  );
  return { columns: new Set(r.rows[0]?.columns ?? []) };
}

/**
 * Whether the supabase_realtime publication publishes this kind of change (publish = '...').
 * @param {RealtimeContext} ctx
 * @param {string} type
 */
async function published(ctx, type) {
  /** @type {import('@electric-sql/pglite').Results<{ on: boolean }>} */
  const r = await ctx.db.query(
    `select coalesce(bool_or(case $1 when 'INSERT' then pubinsert when 'UPDATE' then pubupdate
                                     when 'DELETE' then pubdelete else false end), false) as on
     from pg_publication where pubname = 'supabase_realtime'`,
    [type],
  );
  return r.rows[0]?.on === true;
}

/**
 * Keeps only the named columns of a row.
 * @param {Row | null | undefined} row
 * @param {Set<string>} names
 * @returns {Row}
 */
function pick(row, names) {
  return row ? Object.fromEntries(Object.entries(row).filter(([k]) => names.has(k))) : {};
}

/**
 * Reads the row as the subscriber, only the columns its role may select; null when RLS
 * hides it, or the role may select no column of its primary key (hosted answers that with
 * an error, never a row).
 * @param {RealtimeContext} ctx
 * @param {import('./context.mjs').Claims} claims
 * @param {Table} table
 * @param {Row | null} record
 * @param {Set<string>} columns
 * @returns {Promise<Row | null>}
 */
async function visibleRow(ctx, claims, table, record, columns) {
  if (!table.pk.length || !record || !table.pk.every((k) => columns.has(k))) return null;
  const params = table.pk.map((k) => (record[k] == null ? null : String(record[k])));
  const where = table.pk
    .map((k, i) => `${quoteIdent(k)} = ($${i + 1}::text)::${table.columns.get(k)?.type ?? 'text'}`)
    .join(' and ');
  const list = [...table.columns.keys()]
    .filter((k) => columns.has(k))
    .map(quoteIdent)
    .join(', ');
  try {
    return await ctx.withClaims(ctx.db, claims, async (tx) => {
      /** @type {import('@electric-sql/pglite').Results<{ row: string }>} */
      const r = await tx.query(
        `select row_to_json(_t)::text as row from (select ${list} from ${quoteIdent(table.schema)}.${quoteIdent(table.name)} where ${where}) as _t`,
        params,
      );
      return r.rows[0] ? JSON.parse(r.rows[0].row) : null;
    });
  } catch {
    return null; // no privilege at all: not visible
  }
}

/**
 * The ids of the channel's bindings the change matches.
 * @param {import('./context.mjs').Channel} channel
 * @param {Change} change
 * @param {Row | null | undefined} filterRow
 */
function matchingIds(channel, change, filterRow) {
  return channel.bindings
    .filter(
      (b) =>
        (b.event === '*' || b.event.toUpperCase() === change.type) &&
        (b.schema === '*' || b.schema === change.schema) &&
        (b.table === undefined || b.table === '*' || b.table === change.table) &&
        matchesFilter(b.filter, filterRow),
    )
    .map((b) => b.id);
}

/**
 * The frame's data for one subscriber.
 * @param {Change} change
 * @param {ChangeData['columns']} columns
 * @param {Row} visible
 * @param {Row} oldRecord
 * @returns {ChangeData}
 */
function changeData(change, columns, visible, oldRecord) {
  return {
    schema: change.schema,
    table: change.table,
    commit_timestamp: change.commit_timestamp,
    eventType: change.type,
    type: change.type,
    columns,
    record: change.type === 'DELETE' ? undefined : visible,
    old_record: change.type === 'INSERT' ? undefined : oldRecord,
    new: change.type === 'DELETE' ? {} : visible,
    old: change.type === 'INSERT' ? {} : oldRecord,
    errors: null,
  };
}

/**
 * Sends the change to every channel whose bindings match and whose claims may see the row.
 * @param {RealtimeContext} ctx
 * @param {unknown} notified
 */
export async function dispatch(ctx, notified) {
  if (!notified || typeof notified !== 'object') return;
  const change = /** @type {Change} */ (notified);
  if (change.truncated) return;
  const table = await ctx.schema.table(change.schema, change.table);
  if (!table) return;
  // Like a logical replication slot: a change the publication does not publish never
  // reaches Realtime (profiles publishes no DELETE: its key is the user id).
  if (!(await published(ctx, change.type))) return;
  /** @type {Map<string, Promise<{ columns: Set<string> }>>} */
  const privileges = new Map();
  /** @param {string} role */
  const privilegesOf = (role) => {
    if (!privileges.has(role)) privileges.set(role, selectable(ctx, role, table));
    return /** @type {Promise<{ columns: Set<string> }>} */ (privileges.get(role));
  };
  for (const conn of ctx.sockets) {
    for (const [topic, channel] of conn.channels) {
      await deliver(ctx, { conn, topic, channel }, change, table, privilegesOf);
    }
  }
}

/**
 * One channel's share of a change.
 * @param {RealtimeContext} ctx
 * @param {{ conn: import('./context.mjs').Conn, topic: string, channel: import('./context.mjs').Channel }} to
 * @param {Change} change
 * @param {Table} table
 * @param {(role: string) => Promise<{ columns: Set<string> }>} privilegesOf
 */
async function deliver(ctx, { conn, topic, channel }, change, table, privilegesOf) {
  /** @param {Row | null | undefined} row */
  const pkOnly = (row) => (row ? Object.fromEntries(table.pk.map((k) => [k, row[k]])) : {});
  // A DELETE goes out with only the primary key of the old row (the row is gone, so RLS can
  // no longer be asked about it), as hosted Realtime sends it for a table with RLS. Its
  // filters are matched against that same key-only row, as Realtime matches them against
  // the replica-identity (key) columns it has: a filter on any other column never matches,
  // so a subscriber cannot probe a deleted row's hidden columns. INSERT and UPDATE are
  // matched against the new row.
  const record = change.record ?? null;
  const ids = matchingIds(channel, change, change.type === 'DELETE' ? pkOnly(change.old_record) : record);
  if (ids.length === 0) return;
  // The timer may not have fired yet: never deliver on an expired token.
  if (tokenExpired(channel)) return closeExpired(conn, topic, channel);
  // Each role gets only the columns it may select (anon: none of profiles), in the
  // record, the old record and the column list, as hosted apply_rls builds them.
  const allowed = await privilegesOf(String(channel.claims?.role ?? 'anon'));
  const columns = [...table.columns.entries()]
    .filter(([name]) => allowed.columns.has(name))
    .map(([name, c]) => ({ name, type: c.udt }));
  // The old row carries the replica identity (the primary key), and of it only what the
  // role may select. DELETE: the row is gone, so RLS cannot be asked: it goes out unchecked.
  const oldRecord = pick(pkOnly(change.old_record), allowed.columns);
  /** @type {Row | null} */
  let visible = {};
  if (change.type !== 'DELETE') {
    visible = await visibleRow(ctx, channel.claims, table, record, allowed.columns);
    // PGlite runs each check on this thread: let sockets and HTTP requests in between,
    // then make sure the channel was not left or closed meanwhile.
    await nextTurn();
    if (conn.channels.get(topic) !== channel) return;
  }
  if (!visible) return;
  send(conn, channel.joinRef, null, topic, 'postgres_changes', {
    ids,
    data: changeData(change, columns, visible, oldRecord),
  });
}
