// The invitation state of the purchases ledger (migration 20261126010000): a sale
// without a confirmed account queues its buyer's invitation in the same transaction; of any
// number of concurrent claims exactly one wins; a sent invitation is not claimed again while its
// link is good; the scheduled batch; staff re-queue; confirmation marks it accepted. Concurrency
// runs on separate connections to the real server, as the webhook's parallel requests do.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { serverAt } from '../../packages/supabase-stand-in/test-servers/pg-server.mjs';
import { attempt, demo, serviceClaims, userClaims, type Outcome, type Row } from './helpers';
import { createServerDatabase, type Database } from './server-database';

let db: Database;
const pool: pg.Client[] = [];

beforeAll(async () => {
  db = await createServerDatabase();
  const server = serverAt(inject('postgres'));
  for (let i = 0; i < 8; i++) {
    const client = new pg.Client(server.connection((db as unknown as { name: string }).name));
    await client.connect();
    pool.push(client);
  }
});

afterAll(async () => {
  await Promise.all(pool.map((c) => c.end()));
  await db.close();
});

const freshEmail = (label: string) => `${label}-${randomUUID()}@example.com`;

async function asService(sql: string, params: unknown[]): Promise<Row[]> {
  const outcome = await attempt(db, serviceClaims, sql, params, { rollback: false, operation: null });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.rows;
}

async function sale(email: string, order = `order-${randomUUID()}`) {
  await asService(
    `select public.record_purchase('shopify', $1, $2, $3, 'Foundation', 'foundation', 4900, 'USD', now())`,
    [`evt-${randomUUID()}`, order, email],
  );
}

async function invitation(email: string): Promise<Row | undefined> {
  return (
    await db.query<Row>(
      `select status, last_error, attempts, sent_at is not null as sent from public.buyer_invitations where email = $1`,
      [email],
    )
  ).rows[0];
}

/** claim_invitation as the webhook calls it (service_role), on its own connection. */
async function claimOn(client: pg.Client, email: string): Promise<string | null> {
  await client.query('begin');
  await client.query(
    `select set_config('role', 'service_role', true), set_config('request.jwt.claims', '{"role":"service_role"}', true)`,
  );
  const { rows } = await client.query<{ claim: string | null }>(`select public.claim_invitation($1) as claim`, [email]);
  await client.query('commit');
  return rows[0]?.claim ?? null;
}

async function finish(email: string, claim: string, outcome: string, reason: string | null = null) {
  return (
    await asService(`select public.finish_invitation($1, $2, $3, $4) as done`, [email, claim, outcome, reason])
  )[0]?.done;
}

describe('buyer_invitations', () => {
  it('a sale without a confirmed account queues one pending invitation; a confirmed buyer gets none', async () => {
    const email = freshEmail('queued');
    await sale(email);
    await sale(email);
    expect(await invitation(email)).toEqual({ status: 'pending', last_error: null, attempts: 0, sent: false });
    const confirmed = freshEmail('confirmed');
    await db.query(
      `insert into auth.users (id, aud, role, email, email_confirmed_at) values ($1, 'authenticated', 'authenticated', $2, now())`,
      [randomUUID(), confirmed],
    );
    await sale(confirmed);
    expect(await invitation(confirmed)).toBeUndefined();
  });

  it('of eight concurrent claims exactly one wins, and a sent invitation is not claimed again while good', async () => {
    const email = freshEmail('race');
    await sale(email);
    const claims = await Promise.all(pool.map((client) => claimOn(client, email)));
    const winners = claims.filter((c): c is string => c !== null);
    expect(winners).toHaveLength(1);
    expect(await invitation(email)).toMatchObject({ status: 'sending', attempts: 1 });
    // Only the holder of the claim records the outcome.
    expect(await finish(email, randomUUID(), 'sent')).toBe(false);
    expect(await finish(email, winners[0] as string, 'sent')).toBe(true);
    expect(await claimOn(pool[0] as pg.Client, email)).toBeNull();
    // An hour later its link has expired: the next delivery may send a new one.
    await db.query(`update public.buyer_invitations set sent_at = now() - interval '61 minutes' where email = $1`, [
      email,
    ]);
    expect(await claimOn(pool[0] as pg.Client, email)).not.toBeNull();
  });

  it('record_sale: eight deliveries of one order at once (one webhook id, and new ids) give exactly one claim', async () => {
    const email = freshEmail('sale-race');
    const order = `order-${randomUUID()}`;
    const event = `evt-${randomUUID()}`;
    const results = await Promise.all(
      pool.map(async (client, i) => {
        await client.query('begin');
        await client.query(`select set_config('role', 'service_role', true)`);
        const { rows } = await client.query<{ r: Record<string, unknown> }>(
          `select public.record_sale('shopify', $1, $2, $3, 'Foundation', 'foundation', 4900, 'USD', now()) as r`,
          [i % 2 ? event : `${event}-${i}`, order, email],
        );
        await client.query('commit');
        return rows[0]?.r ?? {};
      }),
    );
    expect(results.filter((r) => r.duplicate === false)).toHaveLength(1);
    expect(results.filter((r) => typeof r.invitation_claim === 'string')).toHaveLength(1);
    expect(results.every((r) => 'invitation_claim' in r)).toBe(true);
    expect(await invitation(email)).toMatchObject({ status: 'sending', attempts: 1 });
    // A confirmed buyer's sale claims nothing.
    const confirmed = freshEmail('sale-confirmed');
    await db.query(
      `insert into auth.users (id, aud, role, email, email_confirmed_at) values ($1, 'authenticated', 'authenticated', $2, now())`,
      [randomUUID(), confirmed],
    );
    const [row] = await asService(
      `select public.record_sale('shopify', $1, $2, $3, 'Foundation', 'foundation', 4900, 'USD', now()) as r`,
      [`evt-${randomUUID()}`, `order-${randomUUID()}`, confirmed],
    );
    expect(row?.r).toMatchObject({ duplicate: false, account: 'confirmed' });
    expect(row?.r).not.toHaveProperty('invitation_claim');
  });

  it('a pending or failed invitation is claimed again, with its reason kept until then', async () => {
    const email = freshEmail('budget');
    await sale(email);
    const first = (await claimOn(pool[0] as pg.Client, email)) as string;
    await finish(email, first, 'pending', 'over_email_send_rate_limit: email rate limit exceeded');
    expect(await invitation(email)).toMatchObject({
      status: 'pending',
      last_error: 'over_email_send_rate_limit: email rate limit exceeded',
    });
    const second = (await claimOn(pool[1] as pg.Client, email)) as string;
    await finish(email, second, 'failed', 'unexpected_failure: SMTP down');
    expect(await invitation(email)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await claimOn(pool[2] as pg.Client, email)).not.toBeNull();
  });

  it('the scheduled batch takes due invitations once, even when two runs overlap', async () => {
    const emails = [freshEmail('due'), freshEmail('due'), freshEmail('due')];
    for (const e of emails) await sale(e);
    const run = async (client: pg.Client) => {
      await client.query('begin');
      await client.query(`select set_config('role', 'service_role', true)`);
      const { rows } = await client.query<{ email: string }>(`select email from public.claim_due_invitations(1000)`);
      await client.query('commit');
      return rows.map((r) => r.email);
    };
    const [a, b] = await Promise.all([run(pool[0] as pg.Client), run(pool[1] as pg.Client)]);
    const mine = [...a, ...b].filter((e) => emails.includes(e));
    expect(mine.sort()).toEqual([...emails].sort());
    expect(await run(pool[2] as pg.Client)).not.toEqual(expect.arrayContaining([emails[0]]));
  });

  it('confirming the address marks the invitation accepted, and no claim follows', async () => {
    const email = freshEmail('accepts');
    await sale(email);
    const id = randomUUID();
    await db.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [
      id,
      email,
    ]);
    await db.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
    expect(await invitation(email)).toMatchObject({ status: 'accepted' });
    expect(await claimOn(pool[0] as pg.Client, email)).toBeNull();
  });

  it('staff read the invitations and re-queue a failed one; nobody else may do either', async () => {
    const email = freshEmail('staffresend');
    await sale(email);
    const claim = (await claimOn(pool[0] as pg.Client, email)) as string;
    await finish(email, claim, 'failed', 'unexpected_failure: SMTP down');
    const asStaff = userClaims(demo.staff, 'staff@example.com');
    const asMember = userClaims(demo.ebook, 'ebook@example.com');
    const read = (claims: typeof asStaff): Promise<Outcome> =>
      attempt(db, claims, `select email, status from public.buyer_invitations where email = $1`, [email], {
        rollback: true,
        operation: null,
      });
    expect(await read(asStaff)).toMatchObject({ ok: true, rows: [{ email, status: 'failed' }] });
    expect(await read(asMember)).toMatchObject({ ok: true, rows: [] });
    const resend = (claims: typeof asStaff | null, target = email) =>
      attempt(db, claims, `select public.staff_resend_invitation($1) as state`, [target], {
        rollback: false,
        operation: null,
      });
    expect(await resend(asMember)).toMatchObject({ ok: false, code: '42501' });
    expect(await resend(serviceClaims)).toMatchObject({ ok: false, code: '42501' });
    expect(await resend(null)).toMatchObject({ ok: false, code: '42501' });
    expect(await invitation(email)).toMatchObject({ status: 'failed' });
    expect(await resend(asStaff)).toMatchObject({ ok: true, rows: [{ state: 'pending' }] });
    expect(await invitation(email)).toMatchObject({ status: 'pending', attempts: 0, last_error: null });
    expect(await resend(asStaff, freshEmail('nobody'))).toMatchObject({ ok: false, code: 'P0002' });
    // No client writes the table directly.
    expect(
      await attempt(db, asStaff, `update public.buyer_invitations set status = 'sent' where email = $1`, [email], {
        rollback: false,
        operation: null,
      }),
    ).toMatchObject({ ok: false });
  });
});
