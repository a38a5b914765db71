// The realtime websocket against hostile or careless clients: frames that used to throw out
// of the socket handler (and end the process), a socket joining channels without end, and
// DELETE events: not published for profiles, and where published, only what the role may
// select, with filters that cannot test guesses about a deleted row's hidden columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../keys.mjs';
import { MAX_CHANNELS_PER_CONNECTION } from '../realtime/channel.mjs';
import {
  rawRealtimeSocket,
  serviceClient,
  signedIn,
  startStandIn,
  uniqueEmail,
  waitFor,
  type StandIn,
} from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';

let server: StandIn;
let ebook: SupabaseClient;
let admin: SupabaseClient;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  ebook = await signedIn(server.url, 'ebook@example.com');
  admin = serviceClient(server.url);
});
afterAll(async () => {
  await ebook?.removeAllChannels();
  await server?.close();
});

function rawSocket(key = ANON_KEY) {
  return rawRealtimeSocket(server.url, key);
}

async function healthy() {
  const res = await fetch(`${server.url}/auth/v1/health`, { headers: { apikey: ANON_KEY } });
  return res.status;
}

describe('malformed frames', () => {
  it('refuses a join whose postgres_changes fields are not strings, and keeps serving', async () => {
    const s = await rawSocket();
    const bad: Array<[string, unknown, RegExp]> = [
      ['1', { config: { postgres_changes: [{ event: { toString: 0 } }] } }, /postgres_changes\[0\]\.event.*string/],
      ['2', { config: { postgres_changes: [{ event: '*', schema: { toString: 0 } }] } }, /\[0\]\.schema/],
      ['3', { config: { postgres_changes: [{ event: '*', table: ['profiles'] }] } }, /\[0\]\.table/],
      ['4', { config: { postgres_changes: [null, { event: '*', filter: { valueOf: 1 } }] } }, /\[1\]\.filter/],
      ['5', { config: { postgres_changes: [1] } }, /postgres_changes\[0\].*a map/],
      ['6', { config: { postgres_changes: { event: '*' } } }, /postgres_changes.*array/],
      ['7', { config: 'x' }, /config.*a map/],
      ['8', { access_token: 5 }, /access_token.*string/],
      ['9', 'not a map', /payload.*a map/],
    ];
    for (const [ref, payload] of bad) s.join(`realtime:bad-${ref}`, ref, payload);
    for (const [ref, , reason] of bad) {
      const reply = await s.replyTo(ref);
      expect(reply.payload.status, `join ${ref}`).toBe('error');
      expect(reply.payload.response?.reason, `join ${ref}`).toMatch(/^InvalidJoinPayload: /);
      expect(reply.payload.response?.reason, `join ${ref}`).toMatch(reason);
    }
    // The same socket still works, and so does the server.
    s.join('realtime:good', '10', { config: { postgres_changes: [{ event: 'UPDATE', schema: 'public' }] } });
    expect((await s.replyTo('10')).payload.status).toBe('ok');
    s.send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '11' });
    expect((await s.replyTo('11')).payload.status).toBe('ok');
    expect(s.frames.filter((f) => f.topic.startsWith('realtime:bad-') && f.event !== 'phx_reply')).toEqual([]);
    s.ws.close();
    expect(await healthy()).toBe(200);
  });

  it('closes only the socket whose frame cannot be answered at all', async () => {
    // A ref nested too deep to serialize back: the reply itself throws.
    const depth = 200_000;
    const s = await rawSocket();
    const other = await rawSocket();
    s.send(`{"topic":"phoenix","event":"heartbeat","payload":{},"ref":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    expect(await waitFor<number>((resolve) => void s.closed.then(resolve), 10_000, 'socket to close')).toBe(1011);
    other.send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' });
    expect((await other.replyTo('1')).payload.status).toBe('ok');
    other.ws.close();
    expect(await healthy()).toBe(200);
  });
});

describe('channels per connection', () => {
  it(`refuses join number ${MAX_CHANNELS_PER_CONNECTION + 1} on one socket, but not a re-join or a join after a leave`, async () => {
    expect(MAX_CHANNELS_PER_CONNECTION).toBe(100); // hosted Realtime's max_channels_per_client
    const s = await rawSocket();
    for (let i = 1; i <= MAX_CHANNELS_PER_CONNECTION + 1; i++) s.join(`realtime:c${i}`, String(i), { config: {} });
    for (let i = 1; i <= MAX_CHANNELS_PER_CONNECTION; i++) {
      expect((await s.replyTo(String(i))).payload.status, `join ${i}`).toBe('ok');
    }
    const refused = await s.replyTo(String(MAX_CHANNELS_PER_CONNECTION + 1));
    expect(refused.payload.status).toBe('error');
    expect(refused.payload.response?.reason).toMatch(/Too many channels.*100/);

    // Joining a topic the socket already has does not count; leaving one frees a place.
    s.join('realtime:c1', 'rejoin', { config: {} });
    expect((await s.replyTo('rejoin')).payload.status).toBe('ok');
    s.send({ topic: 'realtime:c2', event: 'phx_leave', payload: {}, ref: 'leave', join_ref: '2' });
    expect((await s.replyTo('leave')).payload.status).toBe('ok');
    s.join('realtime:after-leave', 'after', { config: {} });
    expect((await s.replyTo('after')).payload.status).toBe('ok');

    // Another socket has its own allowance.
    const other = await rawSocket();
    other.join('realtime:c1', '1', { config: {} });
    expect((await other.replyTo('1')).payload.status).toBe('ok');
    s.ws.close();
    other.ws.close();
  });
});

/** Creates a user (the on_auth_user_created trigger makes their profile row) with a name to guess. */
async function victimUser(): Promise<string> {
  const { data: created, error } = await admin.auth.admin.createUser({
    email: uniqueEmail('victim'),
    password: 'victim-password',
    email_confirm: true,
  });
  expect(error).toBeNull();
  const victim = created.user!.id;
  const named = await admin.from('profiles').update({ display_name: 'Victim Secret' }).eq('id', victim);
  expect(named.error).toBeNull();
  return victim;
}

/** Changes are dispatched in commit order: once this later change arrives, earlier ones have been offered to every channel. */
async function marker(s: Awaited<ReturnType<typeof rawSocket>>) {
  expect((await ebook.from('profiles').update({ display_name: 'Marker' }).eq('id', EBOOK_ID)).error).toBeNull();
  await s.next('marker UPDATE', (f) => f.topic === 'realtime:marker' && f.event === 'postgres_changes');
}

/** Runs fn while the publication also publishes DELETE, as a table whose ids are not private may. */
async function withDeletesPublished(fn: () => Promise<void>) {
  await server.db.exec(`alter publication supabase_realtime set (publish = 'insert, update, delete')`);
  try {
    await fn();
  } finally {
    await server.db.exec(`alter publication supabase_realtime set (publish = 'insert, update')`);
  }
}

describe('DELETE events', () => {
  it('are not published for profiles: deleting an account tells no subscriber its id', async () => {
    const victim = await victimUser();
    const anon = await rawSocket();
    const service = await rawSocket(SERVICE_ROLE_KEY);
    const binding = { postgres_changes: [{ event: 'DELETE', schema: 'public', table: 'profiles' }] };
    anon.join('realtime:anon-deletes', '1', { config: binding });
    service.join('realtime:service-deletes', '1', { config: binding });
    service.join('realtime:marker', '2', {
      config: {
        postgres_changes: [{ event: 'UPDATE', schema: 'public', table: 'profiles', filter: `id=eq.${EBOOK_ID}` }],
      },
    });
    expect((await anon.replyTo('1')).payload.status).toBe('ok');
    for (const ref of ['1', '2']) expect((await service.replyTo(ref)).payload.status).toBe('ok');

    // Deleted as the auth server deletes a user; the profile row goes with it (on delete cascade).
    await server.db.query(`delete from auth.users where id = $1`, [victim]);
    expect((await server.db.query(`select 1 from public.profiles where id = $1`, [victim])).rows).toEqual([]);
    await marker(service);
    expect([...anon.frames, ...service.frames].filter((f) => f.payload.data?.eventType === 'DELETE')).toEqual([]);
    anon.ws.close();
    service.ws.close();
  });

  it('where DELETE is published, each role gets only the columns it may select: anon {}, a user the key', async () => {
    await withDeletesPublished(async () => {
      const victim = await victimUser();
      const anon = await rawSocket();
      const user = await rawSocket();
      const binding = { postgres_changes: [{ event: 'DELETE', schema: 'public', table: 'profiles' }] };
      anon.join('realtime:anon', '1', { config: binding });
      const { data } = await ebook.auth.getSession();
      user.join('realtime:user', '1', { access_token: data.session!.access_token, config: binding });
      expect((await anon.replyTo('1')).payload.status).toBe('ok');
      expect((await user.replyTo('1')).payload.status).toBe('ok');

      expect((await admin.from('profiles').delete().eq('id', victim)).error).toBeNull();
      const toAnon = await anon.next('DELETE to anon', (f) => f.event === 'postgres_changes');
      const toUser = await user.next('DELETE to a user', (f) => f.event === 'postgres_changes');
      expect(toAnon.payload.data).toMatchObject({ eventType: 'DELETE', old_record: {}, old: {}, columns: [] });
      expect(toUser.payload.data).toMatchObject({ eventType: 'DELETE', old_record: { id: victim } });
      expect(Object.keys(toUser.payload.data?.old_record ?? {})).toEqual(['id']);
      anon.ws.close();
      user.ws.close();
    });
  });

  it('filters match only the primary key that goes out, never hidden columns of the deleted row', async () => {
    await withDeletesPublished(async () => {
      const victim = await victimUser();
      const s = await rawSocket();
      const watch = (topic: string, ref: string, binding: Record<string, string>) =>
        s.join(topic, ref, {
          access_token: SERVICE_ROLE_KEY,
          config: { postgres_changes: [{ schema: 'public', table: 'profiles', ...binding }] },
        });
      watch('realtime:guess-right', '1', { event: 'DELETE', filter: 'display_name=eq.Victim Secret' });
      watch('realtime:guess-wrong', '2', { event: 'DELETE', filter: 'display_name=eq.Someone Else' });
      watch('realtime:by-key', '3', { event: 'DELETE', filter: `id=eq.${victim}` });
      watch('realtime:by-user-id', '4', { event: 'DELETE', filter: `user_id=eq.${victim}` });
      watch('realtime:marker', '5', { event: 'UPDATE', filter: `id=eq.${EBOOK_ID}` });
      for (const ref of ['1', '2', '3', '4', '5']) expect((await s.replyTo(ref)).payload.status).toBe('ok');

      const del = await admin.from('profiles').delete().eq('id', victim);
      expect(del.error).toBeNull();
      const byKey = await s.next(
        'DELETE on the key filter',
        (f) => f.topic === 'realtime:by-key' && f.event === 'postgres_changes',
      );
      expect(byKey.payload.data).toMatchObject({ eventType: 'DELETE', old_record: { id: victim } });
      expect(Object.keys(byKey.payload.data?.old_record ?? {})).toEqual(['id']);

      await marker(s);
      expect(
        s.frames.filter(
          (f) => f.event === 'postgres_changes' && f.topic !== 'realtime:by-key' && f.topic !== 'realtime:marker',
        ),
      ).toEqual([]);
      s.ws.close();
    });
  });
});
