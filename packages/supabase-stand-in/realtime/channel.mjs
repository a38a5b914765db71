// @ts-check
// The channel protocol (supabase/realtime lib/realtime_web/channels/realtime_channel.ex): heartbeat,
// phx_join with config.postgres_changes (its payload checked as the join schema, payloads/join.ex, does), the
// per-connection channel limit, access_token refresh and phx_leave.
import { JwtError, verifyJwt } from '../keys.mjs';
import { reply, send, sendSystem } from './context.mjs';
import { armExpiry, stopTimer } from './expiry.mjs';

/** @typedef {import('./context.mjs').Conn} Conn */
/** @typedef {import('./context.mjs').Message} Message */
/** @typedef {import('./context.mjs').Claims} Claims */

/** Hosted Realtime's default `max_channels_per_client`: joins beyond it are refused. */
export const MAX_CHANNELS_PER_CONNECTION = 100;

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
const isMap = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @typedef {{ event: string, schema: string, table?: string | undefined, filter?: string | undefined }} WantedBinding */

/**
 * One config.postgres_changes entry, or its problem as `{ error }`.
 * @param {Record<string, unknown>} b
 * @param {number} i
 * @returns {{ error: string } | WantedBinding}
 */
function readBinding(b, i) {
  for (const field of ['event', 'schema', 'table', 'filter']) {
    if (b[field] != null && typeof b[field] !== 'string')
      return { error: `InvalidJoinPayload: config.postgres_changes[${i}].${field}: unable to parse, expected string` };
  }
  const str = /** @param {unknown} v */ (v) => /** @type {string | undefined} */ (v ?? undefined);
  return { event: str(b.event) ?? '*', schema: str(b.schema) ?? 'public', table: str(b.table), filter: str(b.filter) };
}

/**
 * Checks the types of a phx_join payload the way hosted Realtime's join schema does (every
 * field optional; access_token and each postgres_changes field a string, config a map,
 * postgres_changes an array of maps, null entries dropped) and returns what the join uses, or
 * the first problem as `{ error }`, worded like Realtime's "unable to parse, expected …".
 * Hosted Realtime logs such a payload as InvalidJoinPayload; here the join is refused, so the
 * mistake shows at once instead of as a subscription that never matches.
 * @param {unknown} payload
 * @returns {{ error: string } | { accessToken?: string | undefined, bindings: WantedBinding[] }}
 */
export function readJoinPayload(payload) {
  /** @param {string} path @param {string} expected */
  const invalid = (path, expected) => ({ error: `InvalidJoinPayload: ${path}: unable to parse, expected ${expected}` });
  if (payload == null) payload = {};
  if (!isMap(payload)) return invalid('payload', 'a map');
  const accessToken = payload.access_token;
  if (accessToken != null && typeof accessToken !== 'string') return invalid('access_token', 'string');
  const config = payload.config ?? {};
  if (!isMap(config)) return invalid('config', 'a map');
  const wanted = config.postgres_changes ?? [];
  if (!Array.isArray(wanted)) return invalid('config.postgres_changes', 'an array of maps');
  /** @type {WantedBinding[]} */
  const bindings = [];
  for (const [i, b] of wanted.entries()) {
    if (b == null) continue;
    if (!isMap(b)) return invalid(`config.postgres_changes[${i}]`, 'a map');
    const binding = readBinding(b, i);
    if ('error' in binding) return binding;
    bindings.push(binding);
  }
  return { accessToken: accessToken ?? undefined, bindings };
}

/**
 * The claims of an access token (or API key), or Realtime's reason for refusing it.
 * @param {string} token
 * @returns {Promise<{ claims: Claims, error?: undefined } | { error: string, claims?: undefined }>}
 */
export async function claimsFromToken(token) {
  try {
    const claims = await verifyJwt(token);
    if (!['anon', 'authenticated', 'service_role'].includes(String(claims.role))) return { error: 'Invalid JWT role' };
    return { claims: /** @type {Claims} */ (claims) };
  } catch (e) {
    return { error: e instanceof JwtError && e.reason === 'expired' ? 'Token has expired' : 'Invalid JWT' };
  }
}

/**
 * phx_join: the channel's claims (its access_token, else the socket's key) and bindings.
 * @param {import('./context.mjs').RealtimeContext} ctx
 * @param {Conn} conn
 * @param {Message} msg
 * @param {Claims} defaultClaims
 */
async function join(ctx, conn, msg, defaultClaims) {
  const wanted = readJoinPayload(msg.payload);
  if ('error' in wanted) return reply(conn, msg, 'error', { reason: wanted.error });
  let claims = defaultClaims;
  if (wanted.accessToken !== undefined) {
    const r = await claimsFromToken(wanted.accessToken);
    if (r.error !== undefined) return reply(conn, msg, 'error', { reason: r.error });
    claims = r.claims;
  }
  // Every channel is checked against every change, so a socket may hold only so many
  // (re-joining a topic it already has does not count).
  if (!conn.channels.has(msg.topic) && conn.channels.size >= MAX_CHANNELS_PER_CONNECTION) {
    return reply(conn, msg, 'error', {
      reason: `ChannelRateLimitReached: Too many channels (at most ${MAX_CHANNELS_PER_CONNECTION} per connection)`,
    });
  }
  const bindings = wanted.bindings.map((b) => ({ id: ctx.ids.next++, ...b }));
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
    sendSystem(conn, msg.joinRef, msg.topic, {
      message: 'Subscribed to PostgreSQL',
      status: 'ok',
      extension: 'postgres_changes',
      channel: msg.topic.replace(/^realtime:/, ''),
    });
  }
}

/**
 * access_token: a fresh token for a joined channel; a bad one is answered with a system error.
 * @param {Conn} conn
 * @param {Message} msg
 */
async function refreshToken(conn, msg) {
  const channel = conn.channels.get(msg.topic);
  const token = isMap(msg.payload) ? msg.payload.access_token : undefined;
  if (!channel || typeof token !== 'string') return;
  const r = await claimsFromToken(token);
  if (r.error !== undefined) {
    sendSystem(conn, channel.joinRef, msg.topic, {
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

/**
 * One frame of the protocol.
 * @param {import('./context.mjs').RealtimeContext} ctx
 * @param {Conn} conn
 * @param {Message} msg
 * @param {Claims} defaultClaims
 */
export async function handle(ctx, conn, msg, defaultClaims) {
  if (msg.topic === 'phoenix' && msg.event === 'heartbeat') return reply(conn, msg, 'ok', {});
  if (msg.event === 'phx_join') return join(ctx, conn, msg, defaultClaims);
  if (msg.event === 'access_token') return refreshToken(conn, msg);
  const channel = conn.channels.get(msg.topic);
  if (msg.event === 'phx_leave') {
    if (channel) stopTimer(channel);
    conn.channels.delete(msg.topic);
    reply(conn, msg, 'ok', {});
    send(conn, msg.joinRef, null, msg.topic, 'phx_close', {});
    return;
  }
  if (channel) reply(conn, msg, 'ok', {});
}
