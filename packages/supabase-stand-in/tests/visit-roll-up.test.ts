// The visits' roll-up in the stand-in: counts written through the API as the count function
// writes them (count_visits, a service_role RPC), earlier days dated back in the database, then
// the local cron's hourly job (runVisitRollUp, the SQL pg_cron runs on a hosted project). Staff read the same
// figures before and after; raw counts over 30 days old are gone; the API roles cannot count.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLL_UP_EVERY_MS, runVisitRollUp } from '../cron.mjs';
import { anonClient, serviceClient, signedIn, startStandIn, type StandIn } from './helpers';

let server: StandIn;
let service: SupabaseClient;

/** One count as the count function batches it. */
const visit = (kind: string, page: string, extra: Record<string, unknown> = {}) => ({
  kind,
  page,
  source: null,
  medium: null,
  campaign: null,
  referrer: null,
  bundle: null,
  device: 'phone',
  address: '198.51.100.7',
  user_agent: 'Mozilla/5.0 (roll-up test)',
  site: 'localhost',
  ...extra,
});

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  service = serviceClient(server.url);
});
afterAll(async () => {
  await server?.close();
});

describe('visit counts in the stand-in', () => {
  it('counts through the API for the service role only', async () => {
    const batch = await service.rpc('count_visits', {
      p_counts: [visit('view', '/', { source: 'podcast', campaign: 'launch' }), visit('view', '/bundles')],
    });
    expect(batch.error).toBeNull();
    expect(batch.data).toEqual({ counted: 2, dropped: 0 });
    const { rows } = await server.db.query('select source, campaign from private.visit_events order by id');
    expect(rows).toEqual([
      { source: 'podcast', campaign: 'launch' },
      { source: 'podcast', campaign: 'launch' },
    ]);
    const anon = await anonClient(server.url).rpc('count_visits', { p_counts: [visit('view', '/')] });
    expect(anon.error?.code).toBe('42501');
  });

  it('rolls up ended days on the local cron, with the same figures for staff', async () => {
    // Earlier days: two visitors the day before yesterday, one 45 days ago (past 30 days of raw counts).
    await server.db.exec(`
      insert into private.visit_events (day, kind, page, visitor, referrer, device)
      select (now() at time zone 'America/New_York')::date - d, 'view', '/', sha256(w::bytea), r, 'desktop'
      from (values (2, 'one', 'youtube.com'), (2, 'two', null), (45, 'three', null)) v (d, w, r);
      insert into private.visit_visitors (day, visitor, referrer, device, saw_bundles)
      select day, visitor, referrer, device, false from private.visit_events where device = 'desktop';`);
    const staff = await signedIn(server.url, 'staff@example.com');
    const before = await staff.rpc('staff_visits', { p_days: 90 });
    expect(before.error).toBeNull();
    expect(before.data.funnel).toEqual({ visitors: 4, bundles: 1, checkouts: 0, sales: 0 });

    const result = await runVisitRollUp(server.db);
    expect(result).toMatchObject({ rolled_days: 45, deleted_events: 1 });
    expect((await runVisitRollUp(server.db)).rolled_days).toBe(0);
    const left = await server.db.query<{ n: number }>(`select count(*)::int as n from private.visit_events`);
    expect(left.rows[0]?.n).toBe(4);
    const days = await server.db.query<{ n: number }>(`select count(*)::int as n from private.visit_visitors`);
    expect(days.rows[0]?.n).toBe(3);

    const after = await staff.rpc('staff_visits', { p_days: 90 });
    expect(after.data).toEqual(before.data);
    expect(after.data.by_referrer).toEqual([
      { referrer: null, visitors: 3, checkouts: 0, sales: 0, revenue: [] },
      { referrer: 'youtube.com', visitors: 1, checkouts: 0, sales: 0, revenue: [] },
    ]);
    expect(ROLL_UP_EVERY_MS).toBe(3_600_000);
  });

  it('keeps the figures from members', async () => {
    const member = await signedIn(server.url, 'ebook@example.com');
    const { error } = await member.rpc('staff_visits', { p_days: 7 });
    expect(error?.code).toBe('42501');
  });
});
