// Shared fixtures for the stand-in's tests: a server per test file (random port, in-memory
// database), real supabase-js clients, and users made through the admin API.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { ANON_KEY, DEMO_PASSWORD, SERVICE_ROLE_KEY } from '../keys.mjs';
import { fetchFrom, nextLoopbackAddress } from '../loopback-fetch.mjs';
import { startServer } from '../server.mjs';

export type StandIn = Awaited<ReturnType<typeof startServer>>;

export async function startStandIn(options: Parameters<typeof startServer>[0] = {}): Promise<StandIn> {
  return startServer({ port: 0, quiet: true, dataDir: null, ...options });
}

/**
 * Each client as a caller of its own: connections from a loopback address of its own, the
 * address the auth server's per-IP limits key on (auth/request-limits.mjs), as each visitor has
 * their own.
 */
function ownAddress() {
  return { fetch: fetchFrom(nextLoopbackAddress()) };
}

/** A supabase-js client as the app makes it, minus persistence (tests hold sessions in memory). */
export function anonClient(url: string): SupabaseClient {
  return createClient(url, ANON_KEY, {
    global: ownAddress(),
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; the browser's is used in the app.
    realtime: { transport: WebSocket as never },
  });
}

export function serviceClient(url: string): SupabaseClient {
  return createClient(url, SERVICE_ROLE_KEY, {
    global: ownAddress(),
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

/** A client signed in as `email` (password123 unless given). */
export async function signedIn(url: string, email: string, password = DEMO_PASSWORD): Promise<SupabaseClient> {
  const client = anonClient(url);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return client;
}

/** A mail as GET /inbox answers it (newest first). */
export type InboxMail = { to: string; subject: string; body: string; link: string; otp: string };

/** The stand-in's local inbox for `email`, newest first. */
export async function readInbox(url: string, email: string): Promise<InboxMail[]> {
  const res = await fetch(`${url}/inbox?email=${encodeURIComponent(email)}`, { headers: { apikey: ANON_KEY } });
  if (!res.ok) throw new Error(`inbox: HTTP ${res.status}`);
  return ((await res.json()) as { messages: InboxMail[] }).messages;
}

/**
 * Signs up as a person would with confirmations on (config.toml): the sign-up, then the code of
 * the confirmation mail ("Confirm your e-mail address for Yes, You Can!", config.toml's [auth.email.template.confirmation] subject), which signs the client in. Resolves with the signed-in client.
 */
export async function signedUpAndConfirmed(url: string, email: string, password = 'secret123') {
  const client = anonClient(url);
  const { data, error } = await client.auth.signUp({ email, password });
  if (error) throw error;
  if (data.session) throw new Error('expected no session before the address is confirmed');
  const [mail] = await readInbox(url, email);
  if (mail?.subject !== 'Confirm your e-mail address for Yes, You Can!')
    throw new Error(`no confirmation mail for ${email}`);
  const verified = await client.auth.verifyOtp({ email, token: mail.otp, type: 'email' });
  if (verified.error) throw verified.error;
  return client;
}

let counter = 0;
/** A unique e-mail per call, so tests never share users. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

/** Resolves with the value `pick` returns non-undefined for, or rejects after `ms`. */
export function waitFor<T>(subscribe: (resolve: (value: T) => void) => void, ms = 10_000, what = 'event'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    subscribe((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/** A Phoenix frame as the stand-in's realtime socket sends it (the fields tests read). */
export type RealtimeFrame = {
  topic: string;
  event: string;
  ref: string | null;
  join_ref: string | null;
  payload: {
    status?: string;
    message?: string;
    response?: { reason?: string } & Record<string, unknown>;
    data?: { eventType?: string; record?: Record<string, unknown>; old_record?: Record<string, unknown> };
  } & Record<string, unknown>;
};

/**
 * A raw v1 realtime socket (no supabase-js) that records every frame and lets a test wait,
 * bounded, for the first frame that matches, whether it came already or comes later.
 */
export async function rawRealtimeSocket(url: string, key = ANON_KEY) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${key}&vsn=1.0.0`);
  const frames: RealtimeFrame[] = [];
  const waiters: Array<{ match: (f: RealtimeFrame) => boolean; resolve: (f: RealtimeFrame) => void }> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as RealtimeFrame;
    frames.push(frame);
    for (const w of [...waiters]) {
      if (w.match(frame)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(frame);
      }
    }
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await waitFor<void>((resolve) => ws.on('open', () => resolve()), 10_000, 'socket to open');
  const next = (what: string, match: (f: RealtimeFrame) => boolean) =>
    waitFor<RealtimeFrame>(
      (resolve) => {
        const seen = frames.find(match);
        if (seen) resolve(seen);
        else waiters.push({ match, resolve });
      },
      10_000,
      what,
    );
  const replyTo = (ref: string) => next(`reply to ${ref}`, (f) => f.event === 'phx_reply' && f.ref === ref);
  const send = (frame: unknown) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  const join = (topic: string, ref: string, payload: unknown) =>
    send({ topic, event: 'phx_join', ref, join_ref: ref, payload });
  return { ws, frames, next, replyTo, send, join, closed };
}
