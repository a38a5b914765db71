// @ts-check
// A channel acts with the claims of its access token only while that token is unexpired. Like
// hosted Realtime (lib/realtime_web/channels/realtime_channel.ex, the confirm-token check), when
// `exp` passes without the client sending a fresh `access_token`, the channel gets a system
// error ("Token has expired N seconds ago") and is closed; nothing is delivered to it from then on.
import { send, sendSystem } from './context.mjs';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** @param {import('./context.mjs').Channel} channel */
export function tokenExpired(channel) {
  return typeof channel.claims?.exp === 'number' && channel.claims.exp * 1000 <= Date.now();
}

/** @param {import('./context.mjs').Channel} channel */
export function stopTimer(channel) {
  if (channel.timer) clearTimeout(channel.timer);
  channel.timer = undefined;
}

/**
 * @param {import('./context.mjs').Conn} conn
 * @param {string} topic
 * @param {import('./context.mjs').Channel} channel
 */
export function armExpiry(conn, topic, channel) {
  stopTimer(channel);
  const exp = channel.claims?.exp;
  if (typeof exp !== 'number') return;
  const delay = Math.min(Math.max(exp * 1000 - Date.now(), 0), MAX_TIMER_MS);
  channel.timer = setTimeout(() => {
    channel.timer = undefined;
    if (conn.channels.get(topic) !== channel) return;
    if (tokenExpired(channel)) closeExpired(conn, topic, channel);
    else armExpiry(conn, topic, channel);
  }, delay);
  channel.timer.unref?.();
}

/**
 * @param {import('./context.mjs').Conn} conn
 * @param {string} topic
 * @param {import('./context.mjs').Channel} channel
 */
export function closeExpired(conn, topic, channel) {
  stopTimer(channel);
  if (conn.channels.get(topic) === channel) conn.channels.delete(topic);
  const ago = Math.max(0, Math.floor(Date.now() / 1000) - Number(channel.claims.exp));
  sendSystem(conn, channel.joinRef, topic, {
    message: `Token has expired ${ago} seconds ago`,
    status: 'error',
    extension: 'system',
    channel: topic.replace(/^realtime:/, ''),
  });
  send(conn, channel.joinRef, channel.joinRef, topic, 'phx_close', {});
}
