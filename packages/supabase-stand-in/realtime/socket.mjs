// @ts-check
// The websocket (supabase/realtime lib/realtime_web/channels/user_socket.ex and the Phoenix
// serializers): the upgrade with its API key check, both serializers (vsn 1.0.0 objects, vsn 2.0.0
// arrays), frames handled one after another in arrival order. No frame can take the process
// down: anything that throws while handling one is logged and costs only that socket.
import { handle, claimsFromToken } from './channel.mjs';
import { reply } from './context.mjs';
import { stopTimer } from './expiry.mjs';

/** @typedef {import('./context.mjs').Conn} Conn */

/**
 * A Phoenix frame in either serializer; the socket becomes v2 on its first array frame.
 * @param {Conn} conn
 * @param {import('ws').RawData} data
 * @returns {import('./context.mjs').Message}
 */
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

/** @param {Conn} conn */
function closeBroken(conn) {
  try {
    conn.ws.close(1011, 'internal error');
  } catch {
    conn.ws.terminate();
  }
}

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * Handles one frame; never rejects.
 * @param {import('./context.mjs').RealtimeContext} ctx
 * @param {Conn} conn
 * @param {import('ws').RawData} data
 * @param {import('./context.mjs').Claims} defaultClaims
 */
async function onMessage(ctx, conn, data, defaultClaims) {
  let msg;
  try {
    msg = decode(conn, data);
  } catch {
    return; // not a Phoenix message: ignored, like the real server's serializer would drop it
  }
  if (typeof msg.topic !== 'string' || typeof msg.event !== 'string') return;
  try {
    await handle(ctx, conn, msg, defaultClaims);
  } catch (err) {
    ctx.log(`[realtime] failed to handle ${msg.event} on ${msg.topic}: ${messageOf(err)}`);
    try {
      reply(conn, msg, 'error', { reason: 'Internal error handling the message' });
    } catch {
      // Not even an error reply can be sent (say, a ref nested too deep to serialize):
      // give up on this socket only.
      closeBroken(conn);
    }
  }
}

/**
 * A connected socket: its frames chained, its channels dropped when it goes.
 * @param {import('./context.mjs').RealtimeContext} ctx
 * @param {import('ws').WebSocket} ws
 * @param {boolean} v2
 * @param {import('./context.mjs').Claims} claims
 */
function connect(ctx, ws, v2, claims) {
  /** @type {Conn} */
  const conn = { ws, v2, channels: new Map() };
  ctx.sockets.add(conn);
  // Token checks are async (jose), so frames are chained: each is handled only after the
  // one before it, in the order they arrived, as the real server's channel process does.
  /** @type {Promise<void>} */
  let queue = Promise.resolve();
  ws.on('message', (data) => {
    // onMessage catches its own errors; this is the last guard, so one frame can never
    // reject out of the chain unhandled and end the process.
    queue = queue
      .then(() => onMessage(ctx, conn, data, claims))
      .catch((err) => {
        ctx.log(`[realtime] closing a socket after an error: ${messageOf(err)}`);
        closeBroken(conn);
      });
  });
  const drop = () => {
    for (const channel of conn.channels.values()) stopTimer(channel);
    conn.channels.clear();
    ctx.sockets.delete(conn);
  };
  ws.on('close', drop);
  ws.on('error', drop);
}

/**
 * Handles an HTTP upgrade for /realtime/v1/websocket; refuses a missing or bad apikey.
 * @param {import('./context.mjs').RealtimeContext} ctx
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:stream').Duplex} socket
 * @param {Buffer} head
 * @param {URL} url
 */
export async function upgrade(ctx, req, socket, head, url) {
  const apikey = url.searchParams.get('apikey') ?? req.headers.apikey;
  const r = typeof apikey === 'string' ? await claimsFromToken(apikey) : { error: 'No API key found in request' };
  if (r.error !== undefined) {
    socket.write(
      `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${JSON.stringify({ message: r.error })}`,
    );
    socket.destroy();
    return;
  }
  const claims = r.claims;
  ctx.wss.handleUpgrade(req, socket, head, (ws) => connect(ctx, ws, url.searchParams.get('vsn') === '2.0.0', claims));
}
