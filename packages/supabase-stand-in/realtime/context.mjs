// @ts-check
// What every realtime module is given, explicitly: the database, `withClaims`, the schema cache,
// the log, the websocket server and the live sockets with their joined channels (the state a
// Phoenix socket and its channel processes hold in supabase/realtime's
// lib/realtime_web/channels/user_socket.ex and realtime_channel.ex). Also the frame encoding.
import { WebSocketServer } from 'ws';

/** @typedef {import('../db.mjs').Claims} Claims */
/** @typedef {{ id: number, event: string, schema: string, table?: string | undefined, filter?: string | undefined }} Binding */
/**
 * A joined channel: the claims it acts with, its postgres_changes bindings, its expiry timer.
 * @typedef {{ joinRef: string | null, claims: Claims, bindings: Binding[], timer?: ReturnType<typeof setTimeout> | undefined }} Channel
 */
/** @typedef {{ ws: import('ws').WebSocket, v2: boolean, channels: Map<string, Channel> }} Conn */
/** A decoded Phoenix frame. @typedef {{ joinRef: string | null, ref: string | null, topic: string, event: string, payload: unknown }} Message */

/**
 * @typedef {{
 *   db: import('@electric-sql/pglite').PGlite,
 *   withClaims: typeof import('../db.mjs').withClaims,
 *   schema: import('../rest/schema-cache.mjs').SchemaCache,
 *   log: (m: string) => void,
 *   wss: WebSocketServer,
 *   sockets: Set<Conn>,
 *   ids: { next: number },
 *   changes: { queue: Promise<unknown>, unlisten: (() => Promise<void>) | null },
 * }} RealtimeContext
 *   ids: the next postgres_changes binding id.
 *   changes: changes are dispatched one at a time, in commit order, so subscribers see them in order.
 */

/**
 * @param {{ db: RealtimeContext['db'], withClaims: RealtimeContext['withClaims'], schema: RealtimeContext['schema'],
 *   log: RealtimeContext['log'] }} deps
 * @returns {RealtimeContext}
 */
export function createRealtimeContext(deps) {
  return {
    ...deps,
    wss: new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 }),
    sockets: new Set(),
    ids: { next: 1 },
    changes: { queue: Promise.resolve(), unlisten: null },
  };
}

/**
 * Sends one frame in the socket's serializer (vsn 2.0.0 arrays, 1.0.0 objects).
 * @param {Conn} conn
 * @param {string | null} joinRef
 * @param {string | null} ref
 * @param {string} topic
 * @param {string} event
 * @param {unknown} payload
 */
export function send(conn, joinRef, ref, topic, event, payload) {
  if (conn.ws.readyState !== conn.ws.OPEN) return;
  conn.ws.send(
    JSON.stringify(conn.v2 ? [joinRef, ref, topic, event, payload] : { join_ref: joinRef, ref, topic, event, payload }),
  );
}

/**
 * A phx_reply to `msg`.
 * @param {Conn} conn
 * @param {Message} msg
 * @param {'ok' | 'error'} status
 * @param {Record<string, unknown>} response
 */
export function reply(conn, msg, status, response) {
  send(conn, msg.joinRef, msg.ref, msg.topic, 'phx_reply', { status, response });
}

/**
 * The system message Realtime sends on a channel.
 * @typedef {{ message: string, status: 'ok' | 'error', extension: string, channel: string }} SystemPayload
 */

/**
 * @param {Conn} conn
 * @param {string | null} joinRef
 * @param {string} topic
 * @param {SystemPayload} payload
 */
export const sendSystem = (conn, joinRef, topic, payload) => send(conn, joinRef, null, topic, 'system', payload);
