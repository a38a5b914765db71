// Playing through the one door: the download function in real Deno, GoTrue, the Storage API and
// the database. A member of the file's tier gets a short-lived link that plays in the page and
// answers byte ranges with 206 (Safari reads media only so); the play is logged once a day however
// often the player asks; an anonymous caller, a lower tier, a refunded member and an erased one
// get no link; and a link past its life is refused.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, JWT_SECRET, signJwt } from '../keys.mjs';
import { serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
let service: SupabaseClient;
const AUDIO = 'foundation/play-test/session.mp3';
const VIDEO = 'accelerated/play-test/welcome.mp4';
const CAPTIONS = 'accelerated/play-test/welcome.vtt';
const PDF = 'foundation/play-test/guide.pdf';
// Bytes enough to ask for a middle range; Storage serves what was uploaded, whatever it holds.
const AUDIO_BYTES = Uint8Array.from({ length: 4096 }, (_, i) => i % 251);

async function put(name: string, bytes: Uint8Array, type: string) {
  const { error } = await service.storage
    .from('resources')
    .upload(name, new Blob([new Uint8Array(bytes)], { type }), { contentType: type, upsert: true });
  if (error) throw error;
}

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  service = serviceClient(server.url);
  await put(AUDIO, AUDIO_BYTES, 'audio/mpeg');
  await put(VIDEO, new Uint8Array([0, 0, 0, 8, 0x66, 0x74, 0x79, 0x70]), 'video/mp4');
  await put(CAPTIONS, new TextEncoder().encode('WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n'), 'text/vtt');
  await put(PDF, new TextEncoder().encode('%PDF-1.4\n'), 'application/pdf');
});
afterAll(async () => {
  await server?.close();
});

/** A confirmed member whose tier comes from a paid purchase (so a refund can take it away). */
async function buyer(prefix: string, tier: 'foundation' | 'accelerated' = 'foundation') {
  const email = uniqueEmail(prefix);
  const password = 'secret-pass-1';
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error('no user');
  const order = `order-${email}`;
  const sale = await service.rpc('record_purchase', {
    p_provider: 'stripe',
    p_event_id: `evt-${email}`,
    p_order_id: order,
    p_email: email,
    p_product: tier,
    p_tier: tier,
    p_amount_cents: 4900,
    p_currency: 'USD',
    p_occurred_at: new Date().toISOString(),
  });
  if (sale.error) throw sale.error;
  const client = await signedIn(server.url, email, password);
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return { id: created.data.user.id, email, order, token: data.session.access_token };
}

function askToPlay(path: string, token: string | null) {
  return fetch(`${server.url}/functions/v1/download?play=1&path=${encodeURIComponent(path)}`, {
    headers: { apikey: ANON_KEY, Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
}

async function playLink(path: string, token: string): Promise<{ url: string; expires_in: number }> {
  const answer = await askToPlay(path, token);
  expect(answer.status, await answer.clone().text()).toBe(200);
  return (await answer.json()) as { url: string; expires_in: number };
}

async function plays(userId: string) {
  const { data, error } = await service
    .from('download_log')
    .select('file_name, play_day')
    .eq('user_id', userId)
    .not('play_day', 'is', null);
  if (error) throw error;
  return data;
}

describe('a member of the file’s tier', () => {
  it('gets a link that plays in the page and answers a range with 206', async () => {
    const me = await buyer('play-range');
    const { url, expires_in } = await playLink(AUDIO, me.token);
    expect(expires_in).toBe(300);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition') ?? '').not.toMatch(/attachment/i);
    await whole.arrayBuffer();
    const part = await fetch(url, { headers: { Range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${AUDIO_BYTES.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(AUDIO_BYTES.slice(1000, 2000));
  });

  it('is logged once a day per file, however often the player asks', async () => {
    const me = await buyer('play-log', 'accelerated');
    await playLink(AUDIO, me.token);
    await playLink(AUDIO, me.token);
    await playLink(VIDEO, me.token);
    await playLink(CAPTIONS, me.token);
    const rows = await plays(me.id);
    expect(rows.map((row) => row.file_name).sort()).toEqual([VIDEO, AUDIO]);
  });

  it('cannot play a book: it is downloaded', async () => {
    const me = await buyer('play-pdf');
    const answer = await askToPlay(PDF, me.token);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toBe('not_playable');
    expect(await plays(me.id)).toEqual([]);
  });
});

describe('no link for', () => {
  it('an anonymous caller', async () => {
    expect((await askToPlay(AUDIO, null)).status).toBe(401);
    // The public key as a bearer is no member.
    expect((await askToPlay(AUDIO, ANON_KEY)).status).toBe(401);
  });

  it('a member of a lower tier', async () => {
    const me = await buyer('play-lower', 'foundation');
    const answer = await askToPlay(VIDEO, me.token);
    expect(answer.status).toBe(403);
    expect(await plays(me.id)).toEqual([]);
  });

  it('a refunded member', async () => {
    const me = await buyer('play-refund');
    await playLink(AUDIO, me.token);
    const refund = await service.rpc('record_refund', {
      p_provider: 'stripe',
      p_event_id: `evt-refund-${me.email}`,
      p_order_id: me.order,
      p_occurred_at: new Date().toISOString(),
    });
    if (refund.error) throw refund.error;
    expect((await askToPlay(AUDIO, me.token)).status).toBe(403);
  });

  it('an erased member', async () => {
    const me = await buyer('play-erased');
    const { error } = await service.auth.admin.deleteUser(me.id);
    if (error) throw error;
    expect((await askToPlay(AUDIO, me.token)).status).toBe(401);
  });
});

describe('a link past its life', () => {
  it('is refused by Storage, and its life is the one the function gave', async () => {
    const me = await buyer('play-expired');
    const { url, expires_in } = await playLink(AUDIO, me.token);
    const link = new URL(url);
    const token = link.searchParams.get('token') ?? '';
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      iat: number;
      exp: number;
    };
    expect(claims.exp - claims.iat).toBe(expires_in);
    // The same link as it will be once its life has passed: the same claims, ended a second ago.
    const now = Math.floor(Date.now() / 1000);
    link.searchParams.set('token', await signJwt({ ...claims, iat: now - expires_in - 1, exp: now - 1 }, JWT_SECRET));
    const late = await fetch(link, { headers: { Range: 'bytes=0-99' } });
    expect(late.status).toBe(400);
    expect(((await late.json()) as { message: string }).message).toMatch(/exp/i);
  });
});
