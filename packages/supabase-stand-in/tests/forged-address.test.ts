// A caller cannot choose the address the functions record. Hosted Supabase sits behind
// Cloudflare, which replaces CF-Connecting-IP (and True-Client-IP, X-Real-IP) with the address
// that connected, while X-Forwarded-For keeps whatever the caller put first; the functions read
// CF-Connecting-IP only (supabase/functions/_shared/caller-address.ts) and the stand-in's gateway
// sets it from the TCP peer. Each caller here connects from a loopback address of its own and
// sends forged values of every one of those headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../../supabase/functions/download/fixtures';
import { ANON_KEY } from '../keys.mjs';
import { fetchFrom, nextLoopbackAddress } from '../loopback-fetch.mjs';
import { serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

const FORGED = {
  'CF-Connecting-IP': '203.0.113.7',
  'True-Client-IP': '203.0.113.7',
  'X-Real-IP': '203.0.113.7',
  'X-Forwarded-For': '203.0.113.7',
};
const FILE = 'ebook/forged-address/guide.pdf';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let server: StandIn;

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  const bytes = await makePdf({ pages: 2, bytes: 8_000 });
  const { error } = await serviceClient(server.url)
    .storage.from('resources')
    .upload(FILE, new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), {
      contentType: 'application/pdf',
      upsert: true,
    });
  if (error) throw error;
});
afterAll(async () => {
  await server?.close();
});

describe('a forged address', () => {
  it('reaches neither the download log, nor the sharing flags, nor the count', async () => {
    const email = uniqueEmail('forged');
    const service = serviceClient(server.url);
    const created = await service.auth.admin.createUser({ email, password: 'secret-pass-1', email_confirm: true });
    if (created.error) throw created.error;
    const id = created.data.user!.id;
    await service.from('tier_grants').insert({ user_id: id, tier: 'ebook', reason: 'test', granted_by: null });
    const { data } = await (await signedIn(server.url, email, 'secret-pass-1')).auth.getSession();
    const token = data.session!.access_token;

    // Three downloads from three addresses, each forging the same one: the sharer's hope.
    const peers = [nextLoopbackAddress(), nextLoopbackAddress(), nextLoopbackAddress()];
    for (const peer of peers) {
      const answer = await fetchFrom(peer)(`${server.url}/functions/v1/download?path=${encodeURIComponent(FILE)}`, {
        headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}`, Accept: 'application/json', ...FORGED },
      });
      expect(answer.status).toBe(200);
      await answer.body?.cancel();
    }
    const log = await service.from('download_log').select('ip').eq('user_id', id).order('id');
    expect(log.data?.map((row) => row.ip)).toEqual(peers);

    const staff = await signedIn(server.url, 'staff@example.com');
    const flags = await staff.rpc('staff_download_flags', { p_max_per_day: 100, p_max_ips: 2 });
    expect(flags.error).toBeNull();
    expect(
      (flags.data as Array<{ email: string; addresses: number }>).find((row) => row.email === email),
    ).toMatchObject({ addresses: 3 });

    // The count: one visitor forging another's address stays a visitor of their own.
    const count = (peer: string, headers: Record<string, string>) =>
      fetchFrom(peer)(`${server.url}/functions/v1/count`, {
        method: 'POST',
        headers: {
          'Content-Type': 'text/plain;charset=UTF-8',
          'User-Agent': CHROME,
          Origin: 'https://site.test',
          ...headers,
        },
        body: JSON.stringify({ k: 'view', p: '/privacy' }),
      });
    const [first, second] = [nextLoopbackAddress(), nextLoopbackAddress()];
    expect((await count(first, {})).status).toBe(202);
    expect((await count(second, { ...FORGED, 'CF-Connecting-IP': first, 'X-Forwarded-For': first })).status).toBe(202);
    expect((await count(first, FORGED)).status).toBe(202);
    const visitors = async () =>
      (
        await server.db.query<{ visitor: string }>(
          `select encode(visitor, 'hex') as visitor from private.visit_events where page = '/privacy' order by id`,
        )
      ).rows.map((row) => row.visitor);
    await expect.poll(async () => (await visitors()).length, { timeout: 15_000 }).toBe(3);
    const [a, b, c] = await visitors();
    expect(a).toBe(c);
    expect(b).not.toBe(a);
  });
});
