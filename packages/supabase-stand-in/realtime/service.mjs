// @ts-check
// The Realtime service the server mounts: the websocket upgrade, and the LISTEN on the
// `_local_realtime` channel that feeds postgres_changes (supabase/realtime's
// lib/extensions/postgres_cdc_rls/ subscription poller, here a NOTIFY).
import { createRealtimeContext } from './context.mjs';
import { stopTimer } from './expiry.mjs';
import { dispatch } from './postgres-changes.mjs';
import { upgrade } from './socket.mjs';

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * Starts listening for changes; each is dispatched after the one before it.
 * @param {import('./context.mjs').RealtimeContext} ctx
 */
export async function start(ctx) {
  ctx.changes.unlisten = await ctx.db.listen('local_realtime', (payload) => {
    let change;
    try {
      change = JSON.parse(payload);
    } catch {
      return;
    }
    ctx.changes.queue = ctx.changes.queue
      .then(() => dispatch(ctx, change))
      .catch((err) => ctx.log(`[realtime] dispatch failed: ${messageOf(err)}`));
  });
}

/**
 * Ends every socket, waits for the change in flight, stops listening.
 * @param {import('./context.mjs').RealtimeContext} ctx
 */
export async function close(ctx) {
  for (const conn of ctx.sockets) {
    for (const channel of conn.channels.values()) stopTimer(channel);
    conn.ws.terminate();
  }
  ctx.sockets.clear();
  await ctx.changes.queue;
  const { unlisten } = ctx.changes;
  if (unlisten) await unlisten().catch(() => {});
  ctx.wss.close();
}

/**
 * @param {Parameters<typeof createRealtimeContext>[0]} deps
 */
export function createRealtimeService(deps) {
  const ctx = createRealtimeContext(deps);
  return {
    /**
     * @param {import('node:http').IncomingMessage} req
     * @param {import('node:stream').Duplex} socket
     * @param {Buffer} head
     * @param {URL} url
     */
    upgrade: (req, socket, head, url) => upgrade(ctx, req, socket, head, url),
    start: () => start(ctx),
    close: () => close(ctx),
  };
}
