// The purchases ledger (baseline migration sections 7-9): who may write and read purchases,
// the tier rule (highest paid attached purchase or active staff grant), the webhook RPCs'
// idempotency and ordering, attachment only to confirmed e-mails, and the staff RPCs.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claims } from '../../packages/supabase-stand-in/db.mjs';
import { anonClaims, attempt, demo, serviceClaims, snapshot, userClaims, type Outcome, type Row } from './helpers';
import { createServerDatabase, type Database } from './server-database';

const asStaff = userClaims(demo.staff, 'staff@example.com');
const asEbook = userClaims(demo.ebook, 'ebook@example.com');

let db: Database;

beforeAll(async () => {
  db = await createServerDatabase();
});

afterAll(async () => {
  await db.close();
});

/** A fresh e-mail no other test uses. */
const freshEmail = (label: string) => `${label}-${randomUUID()}@example.com`;

/** Creates an auth user as the auth server would (superuser), confirmed or not. */
async function createUser(email: string, confirmed: boolean): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, $3, now(), now())`,
    [id, email, confirmed ? new Date().toISOString() : null],
  );
  return id;
}

type Sale = {
  provider?: string;
  event?: string;
  order?: string;
  email: string;
  product?: string;
  tier: string;
  amount?: number;
  currency?: string;
};

const recordPurchaseSql = `select public.record_purchase($1, $2, $3, $4, $5, $6::public.tier, $7, $8, $9) as result`;

async function call(claims: Claims | null, sql: string, params: unknown[]): Promise<Outcome> {
  return attempt(db, claims, sql, params, { rollback: false, operation: null });
}

function saleParams(sale: Sale): unknown[] {
  return [
    sale.provider ?? 'stripe',
    sale.event ?? `evt-${randomUUID()}`,
    sale.order ?? `order-${randomUUID()}`,
    sale.email,
    sale.product ?? `${sale.tier} bundle`,
    sale.tier,
    sale.amount ?? 4900,
    sale.currency ?? 'usd',
    '2026-11-24T10:00:00Z',
  ];
}

async function recordPurchase(sale: Sale): Promise<Row> {
  const outcome = await call(serviceClaims, recordPurchaseSql, saleParams(sale));
  if (!outcome.ok) throw new Error(`record_purchase failed: ${outcome.error}`);
  return outcome.rows[0]?.result as Row;
}

async function recordRefund(order: string, event = `re-${randomUUID()}`, provider = 'stripe'): Promise<Row> {
  const outcome = await call(serviceClaims, `select public.record_refund($1, $2, $3, $4) as result`, [
    provider,
    event,
    order,
    '2026-11-24T11:00:00Z',
  ]);
  if (!outcome.ok) throw new Error(`record_refund failed: ${outcome.error}`);
  return outcome.rows[0]?.result as Row;
}

async function staffCall(sql: string, params: unknown[]): Promise<Outcome> {
  return call(asStaff, sql, params);
}

/** The user's user_tiers row as the superuser sees it: undefined without a row. */
async function tierRow(userId: string): Promise<Row | undefined> {
  return (await db.query<Row>(`select tier from public.user_tiers where user_id = $1`, [userId])).rows[0];
}

async function auditOf(userId: string): Promise<Row[]> {
  return (
    await db.query<Row>(
      `select old_tier, new_tier, source, reason, changed_by from public.tier_audit where target_user = $1 order by id`,
      [userId],
    )
  ).rows;
}

describe('no client role writes the ledger', () => {
  const clients: [string, Claims, string][] = [
    ['anon', anonClaims, demo.notier],
    ['a signed-in user', asEbook, demo.ebook],
    ['staff', asStaff, demo.staff],
  ];
  const writes: [string, string, (id: string) => unknown[]][] = [
    [
      'insert a purchase',
      `insert into public.purchases (provider, provider_event_id, order_id, email, product, tier, amount_cents, currency, user_id)
       values ('stripe', 'evt-x', 'order-x', 'ebook@example.com', 'complete bundle', 'complete', 0, 'USD', $1)`,
      (id) => [id],
    ],
    ['update a purchase', `update public.purchases set tier = 'complete', user_id = $1`, (id) => [id]],
    ['delete purchases', `delete from public.purchases where user_id = $1 or user_id is null`, (id) => [id]],
    [
      'insert a staff grant',
      `insert into public.tier_grants (user_id, tier, reason, granted_by) values ($1, 'complete', 'self', $1)`,
      (id) => [id],
    ],
    ['update grants', `update public.tier_grants set tier = 'complete' where user_id = $1`, (id) => [id]],
    [
      'insert a webhook event',
      `insert into public.webhook_events (provider, event_id, kind, order_id) values ('stripe', 'evt-y', 'refund', $1)`,
      (id) => [id],
    ],
    ['insert a tier', `insert into public.user_tiers (user_id, tier) values ($1, 'complete')`, (id) => [id]],
    ['update a tier', `update public.user_tiers set tier = 'complete' where user_id = $1`, (id) => [id]],
    [
      'record a purchase',
      recordPurchaseSql,
      () => saleParams({ email: 'ebook@example.com', tier: 'complete', order: 'self-order' }),
    ],
    ['record a refund', `select public.record_refund('stripe', 'evt-z', 'some-order', now())`, () => []],
  ];

  beforeAll(async () => {
    // Something to update or delete: a purchase of the ebook demo user and one unattached.
    await recordPurchase({ email: 'ebook@example.com', tier: 'foundation' });
    await recordPurchase({ email: freshEmail('nobody'), tier: 'foundation' });
  });

  for (const [who, claims, id] of clients) {
    for (const [what, sql, params] of writes) {
      it(`${who} cannot ${what}`, async () => {
        const before = await snapshot(db);
        const ledgerBefore = await db.query(
          `select (select jsonb_agg(p order by p.id) from public.purchases p) as p,
                  (select jsonb_agg(g order by g.id) from public.tier_grants g) as g,
                  (select count(*) from public.webhook_events) as e`,
        );
        // Refused outright (no privilege), never "0 rows, no error".
        expect(await call(claims, sql, params(id))).toMatchObject({ ok: false, code: '42501' });
        expect(await snapshot(db)).toBe(before);
        expect(
          (
            await db.query(
              `select (select jsonb_agg(p order by p.id) from public.purchases p) as p,
                      (select jsonb_agg(g order by g.id) from public.tier_grants g) as g,
                      (select count(*) from public.webhook_events) as e`,
            )
          ).rows,
        ).toEqual(ledgerBefore.rows);
      });
    }
  }
});

describe('reading purchases', () => {
  let mine: string;
  let theirs: string;
  beforeAll(async () => {
    mine = (await recordPurchase({ email: 'accelerated@example.com', tier: 'accelerated' })).purchase_id as string;
    theirs = (await recordPurchase({ email: 'complete@example.com', tier: 'complete' })).purchase_id as string;
  });

  it('a user reads only their own purchases', async () => {
    const outcome = await call(
      userClaims(demo.accelerated, 'accelerated@example.com'),
      `select id from public.purchases`,
      [],
    );
    expect(outcome).toMatchObject({ ok: true, rows: [{ id: mine }] });
  });

  it('staff read every purchase', async () => {
    const outcome = await call(asStaff, `select id from public.purchases where id = any($1::uuid[])`, [[mine, theirs]]);
    expect(outcome.ok && outcome.rows.length).toBe(2);
  });

  it('anon reads nothing', async () => {
    expect(await call(anonClaims, `select id from public.purchases`, [])).toMatchObject({ ok: false, code: '42501' });
  });
});

describe('record_purchase / record_refund', () => {
  it('records the sale with its amount, currency (upper case) and lower-cased e-mail, and grants the tier', async () => {
    const email = freshEmail('buyer');
    const user = await createUser(email, true);
    const result = await recordPurchase({
      email: email.toUpperCase(),
      tier: 'foundation',
      amount: 2999,
      currency: 'eur',
    });
    expect(result).toMatchObject({ duplicate: false, user_id: user, account: 'confirmed' });
    const { rows } = await db.query(
      `select email, tier, amount_cents, currency, status, user_id, refunded_at from public.purchases where id = $1`,
      [result.purchase_id],
    );
    expect(rows).toEqual([
      {
        email,
        tier: 'foundation',
        amount_cents: 2999,
        currency: 'EUR',
        status: 'paid',
        user_id: user,
        refunded_at: null,
      },
    ]);
    expect(await tierRow(user)).toEqual({ tier: 'foundation' });
    expect(await auditOf(user)).toEqual([
      {
        old_tier: null,
        new_tier: 'foundation',
        source: 'purchase',
        reason: expect.stringContaining('order'),
        changed_by: null,
      },
    ]);
  });

  it('the same event twice changes nothing the second time', async () => {
    const email = freshEmail('twice');
    const user = await createUser(email, true);
    const sale = { email, tier: 'accelerated', event: `evt-${randomUUID()}`, order: `order-${randomUUID()}` };
    const first = await recordPurchase(sale);
    const before = await snapshot(db);
    const second = await recordPurchase(sale);
    expect(second).toEqual({ duplicate: true, purchase_id: first.purchase_id, user_id: user, account: 'confirmed' });
    expect(await snapshot(db)).toBe(before);
    expect((await db.query(`select count(*)::int as n from public.purchases where email = $1`, [email])).rows).toEqual([
      { n: 1 },
    ]);
    // The same order under another event id is not recorded twice either.
    expect(await recordPurchase({ ...sale, event: `evt-${randomUUID()}` })).toMatchObject({ duplicate: true });
    expect(await snapshot(db)).toBe(before);
  });

  it('a replayed refund changes nothing the second time', async () => {
    const email = freshEmail('refund-twice');
    const user = await createUser(email, true);
    const order = `order-${randomUUID()}`;
    await recordPurchase({ email, tier: 'foundation', order });
    const event = `re-${randomUUID()}`;
    expect(await recordRefund(order, event)).toEqual({ duplicate: false, found: true, user_id: user });
    const before = await snapshot(db);
    expect(await recordRefund(order, event)).toEqual({ duplicate: true, found: true, user_id: user });
    expect(await snapshot(db)).toBe(before);
  });

  it('events out of order never downgrade: a lower tier after a higher one keeps the higher', async () => {
    const email = freshEmail('order');
    const user = await createUser(email, true);
    await recordPurchase({ email, tier: 'complete' });
    await recordPurchase({ email, tier: 'foundation' });
    expect(await tierRow(user)).toEqual({ tier: 'complete' });
  });

  it('a refund that arrives before its sale is remembered: the sale is recorded refunded and grants nothing', async () => {
    const email = freshEmail('early-refund');
    const user = await createUser(email, true);
    const order = `order-${randomUUID()}`;
    expect(await recordRefund(order)).toEqual({ duplicate: false, found: false, user_id: null });
    const sale = await recordPurchase({ email, tier: 'complete', order });
    expect(sale).toMatchObject({ duplicate: false, user_id: user });
    const { rows } = await db.query(
      `select status, refunded_at is not null as refunded from public.purchases where id = $1`,
      [sale.purchase_id],
    );
    expect(rows).toEqual([{ status: 'refunded', refunded: true }]);
    expect(await tierRow(user)).toBeUndefined();
  });

  it('a refund falls back to the highest remaining paid purchase, then the staff grant; the row stays with tier null', async () => {
    const email = freshEmail('fallback');
    const user = await createUser(email, true);
    expect(await staffCall(`select public.grant_tier($1, 'ebook', 'launch gift')`, [user])).toMatchObject({ ok: true });
    const foundation = `order-${randomUUID()}`;
    const accelerated = `order-${randomUUID()}`;
    await recordPurchase({ email, tier: 'foundation', order: foundation });
    await recordPurchase({ email, tier: 'accelerated', order: accelerated });
    expect(await tierRow(user)).toEqual({ tier: 'accelerated' });

    expect(await recordRefund(accelerated)).toMatchObject({ found: true, user_id: user });
    expect(await tierRow(user)).toEqual({ tier: 'foundation' });
    await recordRefund(foundation);
    expect(await tierRow(user)).toEqual({ tier: 'ebook' });
    expect(await staffCall(`select public.revoke_tier($1, 'gift ended')`, [user])).toMatchObject({ ok: true });
    expect(await tierRow(user)).toEqual({ tier: null });

    expect((await auditOf(user)).map((a) => [a.old_tier, a.new_tier, a.source])).toEqual([
      [null, 'ebook', 'staff_grant'],
      ['ebook', 'foundation', 'purchase'],
      ['foundation', 'accelerated', 'purchase'],
      ['accelerated', 'foundation', 'refund'],
      ['foundation', 'ebook', 'refund'],
      ['ebook', null, 'staff_revoke'],
    ]);
  });

  it('refuses malformed input with 22023 and records nothing', async () => {
    const before = await snapshot(db);
    for (const sale of [
      { email: 'not-an-email', tier: 'ebook' },
      { email: freshEmail('bad'), tier: 'ebook', provider: 'paypal' },
      { email: freshEmail('bad'), tier: 'ebook', currency: 'dollars' },
      { email: freshEmail('bad'), tier: 'ebook', amount: -1 },
      { email: freshEmail('bad'), tier: 'ebook', order: ' ' },
    ]) {
      expect(await call(serviceClaims, recordPurchaseSql, saleParams(sale)), JSON.stringify(sale)).toMatchObject({
        ok: false,
        code: '22023',
      });
    }
    expect(await snapshot(db)).toBe(before);
  });
});

describe('a purchase attaches only to a confirmed account', () => {
  it('an unconfirmed squatter with the buyer e-mail never receives it; confirming the e-mail is what attaches it', async () => {
    const email = freshEmail('squatted');
    const squatter = await createUser(email, false);
    const sale = await recordPurchase({ email, tier: 'complete' });
    expect(sale).toMatchObject({ duplicate: false, user_id: null, account: 'unconfirmed' });
    expect((await db.query(`select user_id from public.purchases where id = $1`, [sale.purchase_id])).rows).toEqual([
      { user_id: null },
    ]);
    expect(await tierRow(squatter)).toBeUndefined();
    // Signed in somehow, the squatter cannot see the purchase either.
    const asSquatter = userClaims(squatter, email);
    expect(await call(asSquatter, `select id from public.purchases`, [])).toMatchObject({ ok: true, rows: [] });

    // The real owner follows the invitation link: the auth server confirms the e-mail.
    await db.query(`update auth.users set email_confirmed_at = now() where id = $1`, [squatter]);
    expect((await db.query(`select user_id from public.purchases where id = $1`, [sale.purchase_id])).rows).toEqual([
      { user_id: squatter },
    ]);
    expect(await tierRow(squatter)).toEqual({ tier: 'complete' });
    expect(await auditOf(squatter)).toMatchObject([
      { old_tier: null, new_tier: 'complete', source: 'account_confirmed' },
    ]);
  });

  it('a buyer with no account gets account "none"; an account created confirmed later (any letter case) attaches it', async () => {
    const email = freshEmail('later');
    const sale = await recordPurchase({ email, tier: 'foundation' });
    expect(sale).toMatchObject({ user_id: null, account: 'none' });
    const user = await createUser(email.toUpperCase(), true);
    expect(await tierRow(user)).toEqual({ tier: 'foundation' });
  });

  it('a purchase made with another e-mail never attaches', async () => {
    const user = await createUser(freshEmail('other'), true);
    await recordPurchase({ email: freshEmail('someone-else'), tier: 'complete' });
    expect(await tierRow(user)).toBeUndefined();
  });
});

describe('staff grants and revokes', () => {
  it('are audited with who, when and why, in tier_grants and tier_audit', async () => {
    const user = await createUser(freshEmail('granted'), true);
    expect(await staffCall(`select public.grant_tier($1, 'foundation', '  press copy  ')`, [user])).toMatchObject({
      ok: true,
    });
    expect(
      await staffCall(`select public.grant_tier($1, 'complete', 'upgraded for the podcast')`, [user]),
    ).toMatchObject({
      ok: true,
    });
    expect(await staffCall(`select public.revoke_tier($1, 'podcast over')`, [user])).toMatchObject({ ok: true });
    const grants = await db.query(
      `select tier, reason, granted_by, granted_at is not null as granted, revoked_by, revoke_reason, revoked_at is not null as revoked
       from public.tier_grants where user_id = $1 order by granted_at, tier`,
      [user],
    );
    expect(grants.rows).toEqual([
      {
        tier: 'foundation',
        reason: 'press copy',
        granted_by: demo.staff,
        granted: true,
        revoked_by: demo.staff,
        revoke_reason: 'Replaced: upgraded for the podcast',
        revoked: true,
      },
      {
        tier: 'complete',
        reason: 'upgraded for the podcast',
        granted_by: demo.staff,
        granted: true,
        revoked_by: demo.staff,
        revoke_reason: 'podcast over',
        revoked: true,
      },
    ]);
    // One audit row per staff action, with the staff member and the reason (no dip to null in between).
    expect(await auditOf(user)).toEqual([
      { old_tier: null, new_tier: 'foundation', source: 'staff_grant', reason: 'press copy', changed_by: demo.staff },
      {
        old_tier: 'foundation',
        new_tier: 'complete',
        source: 'staff_grant',
        reason: 'upgraded for the podcast',
        changed_by: demo.staff,
      },
      { old_tier: 'complete', new_tier: null, source: 'staff_revoke', reason: 'podcast over', changed_by: demo.staff },
    ]);
    const when = await db.query(
      `select bool_and(changed_at is not null) as stamped from public.tier_audit where target_user = $1`,
      [user],
    );
    expect(when.rows).toEqual([{ stamped: true }]);
  });

  it('a grant below a purchased tier is still audited, and revoking it leaves the purchase', async () => {
    const email = freshEmail('bought');
    const user = await createUser(email, true);
    await recordPurchase({ email, tier: 'accelerated' });
    expect(await staffCall(`select public.grant_tier($1, 'ebook', 'bonus')`, [user])).toMatchObject({ ok: true });
    expect(await staffCall(`select public.revoke_tier($1, 'bonus withdrawn')`, [user])).toMatchObject({ ok: true });
    expect(await tierRow(user)).toEqual({ tier: 'accelerated' });
    expect((await auditOf(user)).map((a) => [a.old_tier, a.new_tier, a.source, a.reason])).toEqual([
      [null, 'accelerated', 'purchase', expect.any(String)],
      ['accelerated', 'accelerated', 'staff_grant', 'bonus'],
      ['accelerated', 'accelerated', 'staff_revoke', 'bonus withdrawn'],
    ]);
  });

  it('a reason is required: blank, missing or over 500 characters is refused with 22023 and changes nothing', async () => {
    const user = await createUser(freshEmail('reason'), true);
    const before = await snapshot(db);
    for (const reason of [null, '', '   ', 'x'.repeat(501)]) {
      expect(
        await staffCall(`select public.grant_tier($1, 'complete', $2)`, [user, reason]),
        String(reason),
      ).toMatchObject({
        ok: false,
        code: '22023',
      });
    }
    expect(await snapshot(db)).toBe(before);
    expect(await staffCall(`select public.grant_tier($1, 'complete', $2)`, [user, 'x'.repeat(500)])).toMatchObject({
      ok: true,
    });
    const granted = await snapshot(db);
    for (const reason of [null, ' ']) {
      expect(await staffCall(`select public.revoke_tier($1, $2)`, [user, reason])).toMatchObject({
        ok: false,
        code: '22023',
      });
    }
    expect(await snapshot(db)).toBe(granted);
    expect(await tierRow(user)).toEqual({ tier: 'complete' });
  });

  it('revoking when there is no active grant is refused (P0002): a purchased tier ends only with a refund', async () => {
    const email = freshEmail('no-grant');
    const user = await createUser(email, true);
    await recordPurchase({ email, tier: 'foundation' });
    expect(await staffCall(`select public.revoke_tier($1, 'try')`, [user])).toMatchObject({ ok: false, code: 'P0002' });
    expect(await tierRow(user)).toEqual({ tier: 'foundation' });
  });
});

describe('the staff RPCs refuse everyone but staff', () => {
  const calls: [string, string, unknown[]][] = [
    ['grant_tier', `select public.grant_tier($1, 'complete', 'me')`, [demo.ebook]],
    ['revoke_tier', `select public.revoke_tier($1, 'me')`, [demo.ebook]],
    ['staff_list_members', `select * from public.staff_list_members()`, []],
    ['staff_list_members (search)', `select * from public.staff_list_members('example', 10, 0)`, []],
    ['staff_member_detail', `select public.staff_member_detail($1)`, [demo.complete]],
  ];
  for (const [who, claims] of [
    ['a signed-in user', asEbook],
    ['anon', anonClaims],
    ['service_role', serviceClaims],
  ] as const) {
    for (const [name, sql, params] of calls) {
      it(`${who}: ${name} → 42501`, async () => {
        const before = await snapshot(db);
        expect(await call(claims, sql, params)).toMatchObject({ ok: false, code: '42501' });
        expect(await snapshot(db)).toBe(before);
      });
    }
  }
});

describe('staff_list_members and staff_member_detail', () => {
  const tag = randomUUID().slice(0, 8);
  const emails = ['a', 'b', 'c', 'd', 'e'].map((l) => `${l}-member-${tag}@example.com`);
  const ids: string[] = [];

  beforeAll(async () => {
    for (const email of emails) ids.push(await createUser(email, true));
    await recordPurchase({
      email: emails[0] as string,
      tier: 'foundation',
      product: 'Foundation Bundle',
      order: `o-${tag}`,
    });
    await staffCall(`select public.grant_tier($1, 'accelerated', 'beta reader')`, [ids[1]]);
  });

  type Member = {
    user_id: string;
    email: string;
    tier: string | null;
    tier_source: string | null;
    purchase_count: number;
  };

  async function list(search: string, size: number, offset: number) {
    const outcome = await staffCall(
      `select user_id, email, tier, tier_source, purchase_count, total_count::int as total from public.staff_list_members($1, $2, $3)`,
      [search, size, offset],
    );
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.rows as (Member & { total: number })[];
  }

  it('searches e-mails case-insensitively, ordered by e-mail, paged, with total_count', async () => {
    const search = `MEMBER-${tag.toUpperCase()}`;
    const first = await list(search, 2, 0);
    const second = await list(search, 2, 2);
    const third = await list(search, 2, 4);
    expect(first.map((m) => m.email)).toEqual(emails.slice(0, 2));
    expect(second.map((m) => m.email)).toEqual(emails.slice(2, 4));
    expect(third.map((m) => m.email)).toEqual(emails.slice(4));
    expect([...first, ...second, ...third].every((m) => m.total === 5)).toBe(true);
    expect(first).toMatchObject([
      { user_id: ids[0], tier: 'foundation', tier_source: 'purchase', purchase_count: 1 },
      { user_id: ids[1], tier: 'accelerated', tier_source: 'staff', purchase_count: 0 },
    ]);
    expect(second[0]).toMatchObject({ tier: null, tier_source: null, purchase_count: 0 });
    expect(await list(`%member-${tag}`, 10, 0)).toEqual([]);
  });

  it('an empty search lists everyone; page_size outside 1..1000 is refused', async () => {
    const all = await list('', 1000, 0);
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from auth.users`);
    expect(all.length).toBe(rows[0]?.n);
    for (const size of [0, 1001]) {
      expect(await staffCall(`select * from public.staff_list_members('', $1, 0)`, [size])).toMatchObject({
        ok: false,
        code: '22023',
      });
    }
  });

  it('staff_member_detail tells where the tier comes from, with purchases, grants and audit', async () => {
    const bought = await staffCall(`select public.staff_member_detail($1) as d`, [ids[0]]);
    expect(bought.ok && bought.rows[0]?.d).toMatchObject({
      user_id: ids[0],
      email: emails[0],
      tier: 'foundation',
      tier_source: { kind: 'purchase', provider: 'stripe', order_id: `o-${tag}`, product: 'Foundation Bundle' },
      purchases: [{ order_id: `o-${tag}`, tier: 'foundation', amount_cents: 4900, currency: 'USD', status: 'paid' }],
      grants: [],
      audit: [{ old_tier: null, new_tier: 'foundation', source: 'purchase', changed_by_email: null }],
    });
    const granted = await staffCall(`select public.staff_member_detail($1) as d`, [ids[1]]);
    expect(granted.ok && granted.rows[0]?.d).toMatchObject({
      tier: 'accelerated',
      tier_source: { kind: 'staff', granted_by_email: 'staff@example.com', reason: 'beta reader' },
      purchases: [],
      grants: [{ tier: 'accelerated', reason: 'beta reader', granted_by_email: 'staff@example.com', revoked_at: null }],
      audit: [
        {
          new_tier: 'accelerated',
          source: 'staff_grant',
          reason: 'beta reader',
          changed_by_email: 'staff@example.com',
        },
      ],
    });
    const none = await staffCall(`select public.staff_member_detail($1) as d`, [ids[2]]);
    expect(none.ok && none.rows[0]?.d).toMatchObject({
      tier: null,
      tier_source: null,
      purchases: [],
      grants: [],
      audit: [],
    });
  });
});
