// Baseline migration section 12: when an address is first confirmed, a password set
// before (by an earlier transaction, e.g. a stranger's sign-up) stops working and every
// session and refresh token of the user ends; a password set by the confirming transaction
// itself (auto-confirmed sign-up, admin create/confirm, an invitation's random password) stays.
// Each statement below is what GoTrue runs, as the database owner (GoTrue's own connection).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase, type Database } from './server-database';

let db: Database;

beforeAll(async () => {
  db = await createServerDatabase();
});

afterAll(async () => {
  await db.close();
});

const HASH = `extensions.crypt('stranger-password', extensions.gen_salt('bf'))`;

/** An unconfirmed user with a password, inserted in a transaction of its own (a sign-up). */
async function signedUpUnconfirmed(): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, ${HASH}, now(), now())`,
    [id, `pre-${id}@example.com`],
  );
  return id;
}

/** A session with a refresh token, as GoTrue's issueRefreshToken writes them. */
async function openSession(userId: string): Promise<string> {
  const sessionId = randomUUID();
  await db.query(`insert into auth.sessions (id, user_id, created_at, updated_at) values ($1, $2, now(), now())`, [
    sessionId,
    userId,
  ]);
  await db.query(
    `insert into auth.refresh_tokens (token, user_id, revoked, session_id, created_at, updated_at)
     values ($1, $2, false, $3, now(), now())`,
    [randomUUID(), userId, sessionId],
  );
  return sessionId;
}

async function state(id: string) {
  const { rows } = await db.query<{ password: string | null; confirmed: boolean; opens: boolean }>(
    `select encrypted_password as password, email_confirmed_at is not null as confirmed,
            coalesce(encrypted_password <> '' and encrypted_password = extensions.crypt('stranger-password', encrypted_password), false) as opens
       from auth.users where id = $1`,
    [id],
  );
  const sessions = await db.query<{ n: number }>(`select count(*)::int as n from auth.sessions where user_id = $1`, [
    id,
  ]);
  const tokens = await db.query<{ n: number }>(
    `select count(*)::int as n from auth.refresh_tokens where user_id = $1::text`,
    [id],
  );
  return { ...rows[0]!, sessions: sessions.rows[0]!.n, refreshTokens: tokens.rows[0]!.n };
}

describe('first confirmation of an address', () => {
  it('makes a password set before it unusable and ends every session (signupVerify: Confirm)', async () => {
    const id = await signedUpUnconfirmed();
    await openSession(id);
    await openSession(id);
    expect(await state(id)).toMatchObject({ opens: true, sessions: 2, refreshTokens: 2 });

    await db.query(`update auth.users set confirmation_token = '', email_confirmed_at = now() where id = $1`, [id]);

    expect(await state(id)).toEqual({ password: '', confirmed: true, opens: false, sessions: 0, refreshTokens: 0 });
  });

  it('lets the session the confirming transaction opens afterwards live (verify issues it after Confirm)', async () => {
    const id = await signedUpUnconfirmed();
    await openSession(id);
    const kept = await db.transaction(async (tx) => {
      await tx.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
      const sessionId = randomUUID();
      await tx.query(`insert into auth.sessions (id, user_id, created_at) values ($1, $2, now())`, [sessionId, id]);
      return sessionId;
    });
    const { rows } = await db.query(`select id from auth.sessions where user_id = $1`, [id]);
    expect(rows).toEqual([{ id: kept }]);
  });

  it('leaves other users alone', async () => {
    const id = await signedUpUnconfirmed();
    const other = await signedUpUnconfirmed();
    await openSession(other);
    await db.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
    expect(await state(other)).toMatchObject({ opens: true, confirmed: false, sessions: 1, refreshTokens: 1 });
  });

  it('keeps a password the confirming transaction set itself (auto-confirmed sign-up, admin create)', async () => {
    const id = randomUUID();
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into auth.users (id, aud, role, email, encrypted_password, created_at, updated_at)
         values ($1, 'authenticated', '', $2, ${HASH}, now(), now())`,
        [id, `auto-${id}@example.com`],
      );
      // signupNewUser's SetRole, then Confirm: separate statements, one transaction.
      await tx.query(`update auth.users set role = 'authenticated' where id = $1`, [id]);
      await tx.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
    });
    expect(await state(id)).toMatchObject({ opens: true, confirmed: true });
  });

  it("keeps the invitation's random password signupVerify sets just before Confirm", async () => {
    const id = randomUUID();
    await db.query(
      `insert into auth.users (id, aud, role, email, invited_at, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', $2, now(), now(), now())`,
      [id, `invited-${id}@example.com`],
    );
    await db.transaction(async (tx) => {
      await tx.query(`update auth.users set encrypted_password = ${HASH} where id = $1`, [id]);
      await tx.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
    });
    expect(await state(id)).toMatchObject({ opens: true, confirmed: true });
  });

  it('keeps a password set in the same statement that confirms (admin update with both)', async () => {
    const id = await signedUpUnconfirmed();
    await db.query(
      `update auth.users set encrypted_password = extensions.crypt('admin-chosen', extensions.gen_salt('bf')),
                             email_confirmed_at = now() where id = $1`,
      [id],
    );
    const { rows } = await db.query<{ ok: boolean }>(
      `select encrypted_password = extensions.crypt('admin-chosen', encrypted_password) as ok from auth.users where id = $1`,
      [id],
    );
    expect(rows[0]?.ok).toBe(true);
  });

  it('does not count a password set by an earlier transaction, even if this one touched the row first', async () => {
    const id = await signedUpUnconfirmed();
    await db.transaction(async (tx) => {
      // recoverVerify: Recover (recovery_token) then Confirm, in one transaction.
      await tx.query(`update auth.users set recovery_token = '' where id = $1`, [id]);
      await tx.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
    });
    expect(await state(id)).toMatchObject({ password: '', opens: false, confirmed: true });
  });

  it('changes nothing once the address is confirmed (later updates, a new confirmation time)', async () => {
    const id = await signedUpUnconfirmed();
    await db.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
    await db.query(`update auth.users set encrypted_password = ${HASH} where id = $1`, [id]);
    await openSession(id);
    await db.query(`update auth.users set email_confirmed_at = now() + interval '1 second' where id = $1`, [id]);
    expect(await state(id)).toMatchObject({ opens: true, sessions: 1 });
  });

  it('also when a confirmed account takes a new address (ConfirmEmailChange), whose owner followed the link', async () => {
    const id = await signedUpUnconfirmed();
    await db.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
    await db.query(`update auth.users set encrypted_password = ${HASH} where id = $1`, [id]);
    await openSession(id);
    await db.query(
      `update auth.users set email = 'moved-' || email, email_change = '', email_change_token_new = '' where id = $1`,
      [id],
    );
    expect(await state(id)).toMatchObject({ password: '', opens: false, sessions: 0, refreshTokens: 0 });
  });

  it('leaves a user without a password as it was', async () => {
    const id = randomUUID();
    await db.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [
      id,
      `nopass-${id}@example.com`,
    ]);
    await db.query(`update auth.users set email_confirmed_at = now() where id = $1`, [id]);
    expect(await state(id)).toMatchObject({ password: null, confirmed: true });
  });

  it('cannot be called through the API roles', async () => {
    const { rows } = await db.query<{ role: string; fn: string; can: boolean }>(
      `select r.role, f.fn, has_function_privilege(r.role, f.fn, 'execute') as can
         from unnest(array['anon', 'authenticated', 'service_role']) as r(role),
              unnest(array['private.note_password_set_in_transaction()',
                           'private.forget_password_set_before_confirmation()']) as f(fn)`,
    );
    expect(rows.filter((r) => r.can)).toEqual([]);
  });
});
