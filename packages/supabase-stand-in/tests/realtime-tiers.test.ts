// The ledger through the stand-in: a purchase or refund recorded by the webhook RPCs
// (service_role) reaches the buyer's open page as a realtime UPDATE of their own user_tiers
// row, and only theirs (/resources follows user_tiers live).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimePostgresUpdatePayload, SupabaseClient } from '@supabase/supabase-js';
import { serviceClient, signedIn, startStandIn, waitFor, type StandIn } from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';
const FOUNDATION_ID = '00000000-0000-4000-8000-000000000002';

type TierRow = { user_id: string; tier: string | null };
type Update = RealtimePostgresUpdatePayload<TierRow>;

let server: StandIn;
let ebook: SupabaseClient;
let foundation: SupabaseClient;
let service: SupabaseClient;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  [ebook, foundation] = await Promise.all([
    signedIn(server.url, 'ebook@example.com'),
    signedIn(server.url, 'foundation@example.com'),
  ]);
  service = serviceClient(server.url);
});
afterAll(async () => {
  await Promise.all([ebook?.removeAllChannels(), foundation?.removeAllChannels()]);
  await server?.close();
});

/** Subscribes to UPDATEs of user_tiers rows matching filter; each event goes to a queue. */
async function follow(client: SupabaseClient, name: string, filter: string) {
  const events: Update[] = [];
  const waiters: ((e: Update) => void)[] = [];
  await waitFor<void>(
    (resolve) => {
      client
        .channel(name)
        .on<TierRow>('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'user_tiers', filter }, (p) => {
          const waiter = waiters.shift();
          if (waiter) waiter(p);
          else events.push(p);
        })
        .subscribe((status, err) => {
          if (status === 'SUBSCRIBED') resolve();
          else if (err) throw err;
        });
    },
    10_000,
    `${name} to subscribe`,
  );
  return {
    events,
    next: () => {
      const queued = events.shift();
      if (queued) return Promise.resolve(queued);
      return waitFor<Update>((resolve) => waiters.push(resolve), 10_000, `${name}: a user_tiers update`);
    },
  };
}

describe('user_tiers over realtime', () => {
  it('a purchase and its refund reach the buyer live, and nobody else', async () => {
    const own = await follow(ebook, 'own-tier', `user_id=eq.${EBOOK_ID}`);
    const stranger = await follow(foundation, 'stranger', `user_id=eq.${EBOOK_ID}`);
    const strangerOwn = await follow(foundation, 'stranger-own', `user_id=eq.${FOUNDATION_ID}`);

    const sale = await service.rpc('record_purchase', {
      p_provider: 'stripe',
      p_event_id: 'evt_live_1',
      p_order_id: 'cs_live_1',
      p_email: 'Ebook@Example.com',
      p_product: 'Complete Bundle',
      p_tier: 'complete',
      p_amount_cents: 49900,
      p_currency: 'usd',
      p_occurred_at: new Date().toISOString(),
    });
    expect(sale.error).toBeNull();
    expect(sale.data).toMatchObject({ duplicate: false, user_id: EBOOK_ID, account: 'confirmed' });
    expect((await own.next()).new).toMatchObject({ user_id: EBOOK_ID, tier: 'complete' });

    const refund = await service.rpc('record_refund', {
      p_provider: 'stripe',
      p_event_id: 'evt_live_2',
      p_order_id: 'cs_live_1',
      p_occurred_at: new Date().toISOString(),
    });
    expect(refund.error).toBeNull();
    // Back to the seed's ebook grant, not to nothing.
    expect((await own.next()).new).toMatchObject({ user_id: EBOOK_ID, tier: 'ebook' });

    // The stranger's own purchase is the marker that everything before it was dispatched.
    const marker = await service.rpc('record_purchase', {
      p_provider: 'shopify',
      p_event_id: 'evt_live_3',
      p_order_id: '1001',
      p_email: 'foundation@example.com',
      p_product: 'Accelerated Bundle',
      p_tier: 'accelerated',
      p_amount_cents: 19900,
      p_currency: 'USD',
      p_occurred_at: new Date().toISOString(),
    });
    expect(marker.error).toBeNull();
    expect((await strangerOwn.next()).new).toMatchObject({ user_id: FOUNDATION_ID, tier: 'accelerated' });
    expect(stranger.events).toEqual([]);
  });

  it('the webhook RPCs are refused to a signed-in user', async () => {
    const refused = await ebook.rpc('record_refund', {
      p_provider: 'stripe',
      p_event_id: 'evt_self',
      p_order_id: 'cs_self',
      p_occurred_at: new Date().toISOString(),
    });
    expect(refused.error?.code).toBe('42501');
  });
});
