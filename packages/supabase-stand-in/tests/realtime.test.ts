import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeChannel, RealtimePostgresUpdatePayload, SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { ANON_KEY, signJwt } from '../keys.mjs';
import { rawRealtimeSocket, signedIn, startStandIn, waitFor, type StandIn } from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';

let server: StandIn;
let ebook: SupabaseClient;
let foundation: SupabaseClient;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  [ebook, foundation] = await Promise.all([
    signedIn(server.url, 'ebook@example.com'),
    signedIn(server.url, 'foundation@example.com'),
  ]);
});
afterAll(async () => {
  await Promise.all([ebook?.removeAllChannels(), foundation?.removeAllChannels()]);
  await server?.close();
});

type Profile = { id: string; display_name: string | null };

function subscribe(
  client: SupabaseClient,
  name: string,
  filter: string,
  onUpdate: (p: RealtimePostgresUpdatePayload<Profile>) => void,
) {
  return waitFor<RealtimeChannel>(
    (resolve) => {
      const channel = client
        .channel(name)
        .on<Profile>('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'profiles', filter }, onUpdate)
        .subscribe((status, err) => {
          if (status === 'SUBSCRIBED') resolve(channel);
          else if (err) throw err;
        });
    },
    10_000,
    `${name} to subscribe`,
  );
}

describe('postgres_changes', () => {
  it('delivers an UPDATE to the row’s owner and not to another user watching the same row', async () => {
    const ownerEvents: RealtimePostgresUpdatePayload<Profile>[] = [];
    const strangerEvents: RealtimePostgresUpdatePayload<Profile>[] = [];
    let ownerGot: (p: RealtimePostgresUpdatePayload<Profile>) => void = () => {};
    const ownerNext = new Promise<RealtimePostgresUpdatePayload<Profile>>((resolve) => (ownerGot = resolve));
    await subscribe(ebook, 'owner', `id=eq.${EBOOK_ID}`, (p) => {
      ownerEvents.push(p);
      ownerGot(p);
    });
    // The stranger watches the owner's row too, and also their own row: their own change is
    // the marker that everything committed before it has been dispatched.
    let strangerOwn: () => void = () => {};
    const strangerOwnNext = new Promise<void>((resolve) => (strangerOwn = resolve));
    await subscribe(foundation, 'stranger', `id=eq.${EBOOK_ID}`, (p) => strangerEvents.push(p));
    await subscribe(foundation, 'stranger-own', `id=eq.00000000-0000-4000-8000-000000000002`, () => strangerOwn());

    const upd = await ebook.from('profiles').update({ display_name: 'Eve Live' }).eq('id', EBOOK_ID);
    expect(upd.error).toBeNull();
    const payload = await Promise.race([
      ownerNext,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no event')), 10_000)),
    ]);
    expect(payload).toMatchObject({
      schema: 'public',
      table: 'profiles',
      eventType: 'UPDATE',
      new: { id: EBOOK_ID, display_name: 'Eve Live' },
      old: { id: EBOOK_ID },
    });
    expect(typeof payload.commit_timestamp).toBe('string');

    await foundation
      .from('profiles')
      .update({ display_name: 'Fran Live' })
      .eq('id', '00000000-0000-4000-8000-000000000002');
    await Promise.race([
      strangerOwnNext,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no own event')), 10_000)),
    ]);
    expect(strangerEvents).toEqual([]);
    expect(ownerEvents).toHaveLength(1);
  });

  it('does not deliver changes that do not match the filter', async () => {
    let got: (p: RealtimePostgresUpdatePayload<Profile>) => void = () => {};
    const next = new Promise<RealtimePostgresUpdatePayload<Profile>>((resolve) => (got = resolve));
    const seen: string[] = [];
    await subscribe(ebook, 'filtered', `display_name=eq.Second`, (p) => {
      seen.push(String(p.new.display_name));
      got(p);
    });
    await ebook.from('profiles').update({ display_name: 'First' }).eq('id', EBOOK_ID);
    await ebook.from('profiles').update({ display_name: 'Second' }).eq('id', EBOOK_ID);
    await next;
    expect(seen).toEqual(['Second']);
  });

  it('speaks heartbeats on a raw v1 socket and refuses a bad access token on join', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${ANON_KEY}&vsn=1.0.0`);
    const replies: Array<{ ref: string; payload: { status: string; response: Record<string, unknown> } }> = [];
    const two = waitFor<void>((resolve) => {
      ws.on('message', (data) => {
        replies.push(JSON.parse(String(data)));
        if (replies.length === 2) resolve();
      });
    });
    await waitFor<void>((resolve) => ws.on('open', () => resolve()));
    ws.send(JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' }));
    ws.send(
      JSON.stringify({
        topic: 'realtime:x',
        event: 'phx_join',
        payload: { config: {}, access_token: 'not-a-jwt' },
        ref: '2',
        join_ref: '2',
      }),
    );
    ws.send('this is not json');
    await two;
    ws.close();
    expect(replies.find((r) => r.ref === '1')?.payload.status).toBe('ok');
    expect(replies.find((r) => r.ref === '2')?.payload).toMatchObject({
      status: 'error',
      response: { reason: 'Invalid JWT' },
    });
  });

  it('refuses a websocket without a valid apikey', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=bogus`);
    const status = await waitFor<number>((resolve) =>
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
  });
});

describe('access token expiry', () => {
  it('closes a channel whose token expired (system error + phx_close) and delivers nothing more to it, unless a fresh token came', async () => {
    const { ws, frames, next } = await rawRealtimeSocket(server.url);

    // Both channels start on tokens that expire within two seconds; one gets a fresh token.
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = (e: number) => signJwt({ aud: 'authenticated', role: 'authenticated', sub: EBOOK_ID, exp: e });
    const [expiring, fresh] = await Promise.all([token(exp), token(exp + 3600)]);
    const config = {
      postgres_changes: [{ event: 'UPDATE', schema: 'public', table: 'profiles', filter: `id=eq.${EBOOK_ID}` }],
    };
    const join = (topic: string, ref: string) =>
      ws.send(
        JSON.stringify({ topic, event: 'phx_join', payload: { config, access_token: expiring }, ref, join_ref: ref }),
      );
    join('realtime:expiring', '1');
    join('realtime:refreshed', '2');
    ws.send(
      JSON.stringify({
        topic: 'realtime:refreshed',
        event: 'access_token',
        payload: { access_token: fresh },
        ref: '3',
        join_ref: '2',
      }),
    );
    expect((await next('join 1', (f) => f.ref === '1')).payload.status).toBe('ok');
    expect((await next('join 2', (f) => f.ref === '2')).payload.status).toBe('ok');

    const system = await next(
      'expiry notice',
      (f) => f.topic === 'realtime:expiring' && f.event === 'system' && f.payload.status === 'error',
    );
    expect(system.payload).toMatchObject({ extension: 'system', channel: 'expiring' });
    expect(system.payload.message).toMatch(/^Token has expired \d+ seconds ago$/);
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
    await next('phx_close', (f) => f.topic === 'realtime:expiring' && f.event === 'phx_close');

    // A change now reaches only the channel whose token was refreshed.
    expect((await ebook.from('profiles').update({ display_name: 'After Expiry' }).eq('id', EBOOK_ID)).error).toBeNull();
    const change = await next(
      'change on the refreshed channel',
      (f) => f.topic === 'realtime:refreshed' && f.event === 'postgres_changes',
    );
    expect(change.payload.data?.record).toMatchObject({ id: EBOOK_ID, display_name: 'After Expiry' });
    ws.close();
    expect(
      frames.filter(
        (f) =>
          f.topic === 'realtime:refreshed' &&
          ((f.event === 'system' && f.payload.status === 'error') || f.event === 'phx_close'),
      ),
    ).toEqual([]);
    expect(frames.filter((f) => f.topic === 'realtime:expiring' && f.event === 'postgres_changes')).toEqual([]);
  });
});
