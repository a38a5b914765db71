// The Realtime websocket (/realtime/v1/websocket) as the pinned realtime-js speaks it: the
// Phoenix channel protocol in both serializers (vsn 1.0.0 objects, vsn 2.0.0 arrays),
// heartbeats, phx_join with config.postgres_changes, access_token refresh, phx_leave, and
// `postgres_changes` events. Changes arrive from the `_local_realtime` triggers by NOTIFY;
// each is delivered to a subscriber only if selecting the row as that subscriber (their
// role and JWT claims, so RLS decides) returns it — Realtime's own authorization rule.
// No frame can take the process down: a join whose payload has the wrong types is refused,
// and anything else that throws while handling a frame is logged and costs only that socket.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { WebSocketServer } from 'ws';
import { JwtError, verifyJwt } from './keys.mjs';
import { quoteIdent } from './rest.mjs';

const FILTER_RE = /^([^=]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s;

/** Hosted Realtime's default `max_channels_per_client`: joins beyond it are refused. */
export const MAX_CHANNELS_PER_CONNECTION = 100;

const isMap = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks the types of a phx_join payload the way hosted Realtime's join schema does (every
 * field optional; access_token and each postgres_changes field a string, config a map,
 * postgres_changes an array of maps, null entries dropped) and returns what the join uses, or
 * the first problem as `{ error }`, worded like Realtime's "unable to parse, expected …".
 * Hosted Realtime logs such a payload as InvalidJoinPayload; here the join is refused, so the
 * mistake shows at once instead of as a subscription that never matches.
 * @returns {{ error: string } | { accessToken?: string, bindings: Array<{ event: string, schema: string, table?: string, filter?: string }> }}
 */
export function readJoinPayload(payload) {
  const invalid = (path, expected) => ({
    error: `InvalidJoinPayload: ${path}: unable to parse, expected ${expected}`,
  });
  if (payload == null) payload = {};
  if (!isMap(payload)) return invalid('payload', 'a map');
  const accessToken = payload.access_token;
  if (accessToken != null && typeof accessToken !== 'string') return invalid('access_token', 'string');
  const config = payload.config ?? {};
  if (!isMap(config)) return invalid('config', 'a map');
  const wanted = config.postgres_changes ?? [];
  if (!Array.isArray(wanted)) return invalid('config.postgres_changes', 'an array of maps');
  const bindings = [];
  for (const [i, b] of wanted.entries()) {
    if (b == null) continue;
    if (!isMap(b)) return invalid(`config.postgres_changes[${i}]`, 'a map');
    for (const field of ['event', 'schema', 'table', 'filter']) {
      if (b[field] != null && typeof b[field] !== 'string')
        return invalid(`config.postgres_changes[${i}].${field}`, 'string');
    }
    bindings.push({
      event: b.event ?? '*',
      schema: b.schema ?? 'public',
      table: b.table ?? undefined,
      filter: b.filter ?? undefined,
    });
  }
  return { accessToken: accessToken ?? undefined, bindings };
}

/** Whether a record passes a realtime filter such as `user_id=eq.123`. */
export function matchesFilter(filter, record) {
  if (!filter) return true;
  const m = FILTER_RE.exec(filter);
  if (!m || !record) return false;
  const [, column, op, value] = /** @type {[string, string, string, string]} */ (m);
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

async function claimsFromToken(token) {
  try {
    const claims = await verifyJwt(token);
    if (!['anon', 'authenticated', 'service_role'].includes(claims.role)) return { error: 'Invalid JWT role' };
    return { claims };
  } catch (e) {
    return { error: e instanceof JwtError && e.reason === 'expired' ? 'Token has expired' : 'Invalid JWT' };
  }
}

/**
 * @param {{ db: any, withClaims: Function, schema: import('./rest.mjs').SchemaCache, log: (m: string) => void }} deps
 */
export function createRealtimeService({ db, withClaims, schema, log }) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  let nextId = 1;
  /** @type {Set<{ ws: import('ws').WebSocket, v2: boolean, channels: Map<string, { joinRef: string | null, claims: any, bindings: any[], timer?: ReturnType<typeof setTimeout> }> }>} */
  const sockets = new Set();
  /** @type {(() => Promise<void>) | null} */
  let unlisten = null;
  // Changes are dispatched one at a time, in commit order, so subscribers see them in order.
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();

  function send(conn, joinRef, ref, topic, event, payload) {
    if (conn.ws.readyState !== conn.ws.OPEN) return;
    conn.ws.send(
      JSON.stringify(
        conn.v2 ? [joinRef, ref, topic, event, payload] : { join_ref: joinRef, ref, topic, event, payload },
      ),
    );
  }

  function reply(conn, msg, status, response) {
    send(conn, msg.joinRef, msg.ref, msg.topic, 'phx_reply', { status, response });
  }

  // A channel acts with the claims of its access token only while that token is unexpired.
  // Like hosted Realtime, when `exp` passes without the client sending a fresh `access_token`,
  // the channel gets a system error ("Token has expired N seconds ago") and is closed; nothing
  // is delivered to it from then on.
  const MAX_TIMER_MS = 2 ** 31 - 1;

  function tokenExpired(channel) {
    return typeof channel.claims?.exp === 'number' && channel.claims.exp * 1000 <= Date.now();
  }

  function stopTimer(channel) {
    if (channel.timer) clearTimeout(channel.timer);
    channel.timer = undefined;
  }

  function armExpiry(conn, topic, channel) {
    stopTimer(channel);
    if (typeof channel.claims?.exp !== 'number') return;
    const delay = Math.min(Math.max(channel.claims.exp * 1000 - Date.now(), 0), MAX_TIMER_MS);
    channel.timer = setTimeout(() => {
      channel.timer = undefined;
      if (conn.channels.get(topic) !== channel) return;
      if (tokenExpired(channel)) closeExpired(conn, topic, channel);
      else armExpiry(conn, topic, channel);
    }, delay);
    channel.timer.unref?.();
  }

  function closeExpired(conn, topic, channel) {
    stopTimer(channel);
    if (conn.channels.get(topic) === channel) conn.channels.delete(topic);
    const ago = Math.max(0, Math.floor(Date.now() / 1000) - channel.claims.exp);
    send(conn, channel.joinRef, null, topic, 'system', {
      message: `Token has expired ${ago} seconds ago`,
      status: 'error',
      extension: 'system',
      channel: topic.replace(/^realtime:/, ''),
    });
    send(conn, channel.joinRef, channel.joinRef, topic, 'phx_close', {});
  }

  function decode(conn, data) {
    const parsed = JSON.parse(String(data));
    if (Array.isArray(parsed)) {
      conn.v2 = true;
      const [joinRef, ref, topic, event, payload] = parsed;
      return { joinRef: joinRef ?? null, ref: ref ?? null, topic, event, payload: payload ?? {} };
    }
    return {
      joinRef: parsed.join_ref ?? null,
      ref: parsed.ref ?? null,
      topic: parsed.topic,
      event: parsed.event,
      payload: parsed.payload ?? {},
    };
  }

  /** Handles one frame; never rejects (see `handle` for the protocol itself). */
  async function onMessage(conn, data, defaultClaims) {
    let msg;
    try {
      msg = decode(conn, data);
    } catch {
      return; // not a Phoenix message: ignored, like the real server's serializer would drop it
    }
    if (typeof msg.topic !== 'string' || typeof msg.event !== 'string') return;
    try {
      await handle(conn, msg, defaultClaims);
    } catch (err) {
      log(`[realtime] failed to handle ${msg.event} on ${msg.topic}: ${err?.message ?? err}`);
      try {
        reply(conn, msg, 'error', { reason: 'Internal error handling the message' });
      } catch {
        // Not even an error reply can be sent (say, a ref nested too deep to serialize):
        // give up on this socket only.
        closeBroken(conn);
      }
    }
  }

  function closeBroken(conn) {
    try {
      conn.ws.close(1011, 'internal error');
    } catch {
      conn.ws.terminate();
    }
  }

  async function handle(conn, msg, defaultClaims) {
    if (msg.topic === 'phoenix' && msg.event === 'heartbeat') {
      reply(conn, msg, 'ok', {});
      return;
    }
    if (msg.event === 'phx_join') {
      const join = readJoinPayload(msg.payload);
      if ('error' in join) {
        reply(conn, msg, 'error', { reason: join.error });
        return;
      }
      let claims = defaultClaims;
      if (join.accessToken !== undefined) {
        const r = await claimsFromToken(join.accessToken);
        if (r.error) {
          reply(conn, msg, 'error', { reason: r.error });
          return;
        }
        claims = r.claims;
      }
      // Every channel is checked against every change, so a socket may hold only so many
      // (re-joining a topic it already has does not count).
      if (!conn.channels.has(msg.topic) && conn.channels.size >= MAX_CHANNELS_PER_CONNECTION) {
        reply(conn, msg, 'error', {
          reason: `ChannelRateLimitReached: Too many channels (at most ${MAX_CHANNELS_PER_CONNECTION} per connection)`,
        });
        return;
      }
      const bindings = join.bindings.map((b) => ({ id: nextId++, ...b }));
      const previous = conn.channels.get(msg.topic);
      if (previous) stopTimer(previous);
      const joined = { joinRef: msg.joinRef, claims, bindings };
      conn.channels.set(msg.topic, joined);
      armExpiry(conn, msg.topic, joined);
      reply(conn, msg, 'ok', {
        postgres_changes: bindings.map((b) => ({
          id: b.id,
          event: b.event,
          schema: b.schema,
          table: b.table,
          filter: b.filter,
        })),
      });
      if (bindings.length) {
        send(conn, msg.joinRef, null, msg.topic, 'system', {
          message: 'Subscribed to PostgreSQL',
          status: 'ok',
          extension: 'postgres_changes',
          channel: msg.topic.replace(/^realtime:/, ''),
        });
      }
      return;
    }
    const channel = conn.channels.get(msg.topic);
    if (msg.event === 'access_token') {
      if (channel && typeof msg.payload?.access_token === 'string') {
        const r = await claimsFromToken(msg.payload.access_token);
        if (r.error) {
          send(conn, channel.joinRef, null, msg.topic, 'system', {
            message: r.error,
            status: 'error',
            extension: 'system',
            channel: msg.topic,
          });
        } else {
          channel.claims = r.claims;
          armExpiry(conn, msg.topic, channel);
        }
      }
      return;
    }
    if (msg.event === 'phx_leave') {
      if (channel) stopTimer(channel);
      conn.channels.delete(msg.topic);
      reply(conn, msg, 'ok', {});
      send(conn, msg.joinRef, null, msg.topic, 'phx_close', {});
      return;
    }
    if (channel) reply(conn, msg, 'ok', {});
  }

  /** Handles an HTTP upgrade for /realtime/v1/websocket; refuses a missing or bad apikey. */
  async function upgrade(req, socket, head, url) {
    const apikey = url.searchParams.get('apikey') ?? req.headers.apikey;
    const r = typeof apikey === 'string' ? await claimsFromToken(apikey) : { error: 'No API key found in request' };
    if (r.error) {
      socket.write(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${JSON.stringify({ message: r.error })}`,
      );
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = { ws, v2: url.searchParams.get('vsn') === '2.0.0', channels: new Map() };
      sockets.add(conn);
      // Token checks are async (jose), so frames are chained: each is handled only after the
      // one before it, in the order they arrived, as the real server's channel process does.
      /** @type {Promise<void>} */
      let queue = Promise.resolve();
      ws.on('message', (data) => {
        // onMessage catches its own errors; this is the last guard, so one frame can never
        // reject out of the chain unhandled and end the process.
        queue = queue
          .then(() => onMessage(conn, data, r.claims))
          .catch((err) => {
            log(`[realtime] closing a socket after an error: ${err?.message ?? err}`);
            closeBroken(conn);
          });
      });
      const drop = () => {
        for (const channel of conn.channels.values()) stopTimer(channel);
        conn.channels.clear();
        sockets.delete(conn);
      };
      ws.on('close', drop);
      ws.on('error', drop);
    });
  }

  /**
   * The columns of a table the role may select, as hosted `realtime.apply_rls` reads them
   * (has_column_privilege ... 'SELECT'). Asked as the superuser, once per change and role.
   */
  async function selectable(role, table) {
    const r = await db.query(
      `select coalesce(array_agg(a.attname::text order by a.attnum)
                 filter (where has_column_privilege($1, a.attrelid, a.attnum, 'SELECT')), '{}') as columns
       from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       where c.oid = (quote_ident($2) || '.' || quote_ident($3))::regclass`,
      [role, table.schema, table.name],
    );
    return { columns: new Set(r.rows[0]?.columns ?? []) };
  }

  /** Whether the supabase_realtime publication publishes this kind of change (publish = '...'). */
  async function published(type) {
    const r = await db.query(
      `select coalesce(bool_or(case $1 when 'INSERT' then pubinsert when 'UPDATE' then pubupdate
                                       when 'DELETE' then pubdelete else false end), false) as on
       from pg_publication where pubname = 'supabase_realtime'`,
      [type],
    );
    return r.rows[0]?.on === true;
  }

  /** Keeps only the named columns of a row. */
  function pick(row, names) {
    return row ? Object.fromEntries(Object.entries(row).filter(([k]) => names.has(k))) : {};
  }

  /**
   * Reads the row as the subscriber, only the columns its role may select; null when RLS
   * hides it, or the role may select no column of its primary key (hosted answers that with
   * an error, never a row).
   */
  async function visibleRow(claims, table, record, columns) {
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
      return await withClaims(db, claims, async (tx) => {
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

  async function dispatch(change) {
    if (!change || typeof change !== 'object' || change.truncated) return;
    const table = await schema.table(change.schema, change.table);
    if (!table) return;
    // Like a logical replication slot: a change the publication does not publish never
    // reaches Realtime (profiles publishes no DELETE: its key is the user id).
    if (!(await published(change.type))) return;
    const record = change.record ?? null;
    /** @type {Map<string, Promise<{ columns: Set<string> }>>} */
    const privileges = new Map();
    const privilegesOf = (role) => {
      if (!privileges.has(role)) privileges.set(role, selectable(role, table));
      return /** @type {Promise<{ columns: Set<string> }>} */ (privileges.get(role));
    };
    const pkOnly = (row) => (row ? Object.fromEntries(table.pk.map((k) => [k, row[k]])) : {});
    // A DELETE goes out with only the primary key of the old row (the row is gone, so RLS can
    // no longer be asked about it), as hosted Realtime sends it for a table with RLS. Its
    // filters are matched against that same key-only row, as Realtime matches them against
    // the replica-identity (key) columns it has: a filter on any other column never matches,
    // so a subscriber cannot probe a deleted row's hidden columns. INSERT and UPDATE are
    // matched against the new row.
    const filterRow = change.type === 'DELETE' ? pkOnly(change.old_record) : record;
    for (const conn of sockets) {
      for (const [topic, channel] of conn.channels) {
        const ids = channel.bindings
          .filter(
            (b) =>
              (b.event === '*' || b.event.toUpperCase() === change.type) &&
              (b.schema === '*' || b.schema === change.schema) &&
              (b.table === undefined || b.table === '*' || b.table === change.table) &&
              matchesFilter(b.filter, filterRow),
          )
          .map((b) => b.id);
        if (ids.length === 0) continue;
        // The timer may not have fired yet: never deliver on an expired token.
        if (tokenExpired(channel)) {
          closeExpired(conn, topic, channel);
          continue;
        }
        // Each role gets only the columns it may select (anon: none of profiles), in the
        // record, the old record and the column list, as hosted apply_rls builds them.
        const allowed = await privilegesOf(channel.claims?.role ?? 'anon');
        const columns = [...table.columns.entries()]
          .filter(([name]) => allowed.columns.has(name))
          .map(([name, c]) => ({ name, type: c.udt }));
        // The old row carries the replica identity (the primary key), and of it only what the
        // role may select. DELETE: the row is gone, so RLS cannot be asked: it goes out unchecked.
        const oldRecord = pick(pkOnly(change.old_record), allowed.columns);
        let visible = true;
        if (change.type !== 'DELETE') {
          visible = await visibleRow(channel.claims, table, record, allowed.columns);
          // PGlite runs each check on this thread: let sockets and HTTP requests in between,
          // then make sure the channel was not left or closed meanwhile.
          await nextTurn();
          if (conn.channels.get(topic) !== channel) continue;
        }
        if (!visible) continue;
        const data = {
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
        send(conn, channel.joinRef, null, topic, 'postgres_changes', { ids, data });
      }
    }
  }

  async function start() {
    unlisten = await db.listen('local_realtime', (payload) => {
      let change;
      try {
        change = JSON.parse(payload);
      } catch {
        return;
      }
      queue = queue
        .then(() => dispatch(change))
        .catch((err) => log(`[realtime] dispatch failed: ${err?.message ?? err}`));
    });
  }

  async function close() {
    for (const conn of sockets) {
      for (const channel of conn.channels.values()) stopTimer(channel);
      conn.ws.terminate();
    }
    sockets.clear();
    await queue;
    if (unlisten) await unlisten().catch(() => {});
    wss.close();
  }

  return { upgrade, start, close };
}
