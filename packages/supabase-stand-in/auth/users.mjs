// @ts-check
// auth.users and auth.identities as GoTrue keeps them (internal/models/user.go,
// internal/models/identity.go), and the user JSON it answers (models.User's JSON). Users have
// bcrypt hashes made by pgcrypto, exactly as GoTrue stores them, so supabase/seed.sql works on
// both stacks.
import { AUTH_SETTINGS } from '../config/auth.mjs';
import { authError, emailExists } from './errors.mjs';

/**
 * GoTrue answers null, not nothing, for these (Go pointers without omitempty) where auth-js
 * declares them optional; the rest is auth-js's own User.
 * @typedef {'email_confirmed_at' | 'confirmed_at' | 'last_sign_in_at' | 'identities'} NullableUserFields
 */
/**
 * An identity as GoTrue answers it: auth-js's UserIdentity, with the provider's own id and the
 * e-mail, and null timestamps where there are none.
 * @typedef {Omit<import('@supabase/auth-js').UserIdentity, 'created_at' | 'last_sign_in_at' | 'updated_at'> & {
 *   created_at: string | null, last_sign_in_at: string | null, updated_at: string | null, email: string | null,
 * }} IdentityJson
 */
/**
 * @typedef {Omit<import('@supabase/auth-js').User, NullableUserFields> & {
 *   email_confirmed_at: string | null, confirmed_at: string | null, last_sign_in_at: string | null,
 *   identities: IdentityJson[],
 * }} UserJson
 */

// GoTrue's e-mail check (a practical subset of RFC 5322).
const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
/** config.toml [auth] minimum_password_length. */
const MIN_PASSWORD = AUTH_SETTINGS.minimumPasswordLength;

/** @param {Date | string | null | undefined} v */
const iso = (v) => (v ? new Date(v).toISOString() : null);

/**
 * @param {import('./context.mjs').UserRow} row
 * @returns {UserJson}
 */
export function userJson(row) {
  return {
    id: row.id,
    aud: row.aud ?? 'authenticated',
    role: row.role ?? 'authenticated',
    email: row.email,
    email_confirmed_at: iso(row.email_confirmed_at),
    phone: row.phone ?? '',
    confirmed_at: iso(row.confirmed_at ?? row.email_confirmed_at),
    last_sign_in_at: iso(row.last_sign_in_at),
    // GoTrue leaves these out until they are set (omitempty).
    ...(row.invited_at ? { invited_at: /** @type {string} */ (iso(row.invited_at)) } : {}),
    ...(row.confirmation_sent_at
      ? { confirmation_sent_at: /** @type {string} */ (iso(row.confirmation_sent_at)) }
      : {}),
    ...(row.recovery_sent_at ? { recovery_sent_at: /** @type {string} */ (iso(row.recovery_sent_at)) } : {}),
    ...(row.email_change ? { new_email: row.email_change } : {}),
    ...(row.email_change_sent_at
      ? { email_change_sent_at: /** @type {string} */ (iso(row.email_change_sent_at)) }
      : {}),
    app_metadata: row.raw_app_meta_data ?? {},
    user_metadata: row.raw_user_meta_data ?? {},
    identities: (row.identities ?? []).map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: row.id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: i.email,
    })),
    created_at: /** @type {string} */ (iso(row.created_at)),
    updated_at: /** @type {string} */ (iso(row.updated_at)),
    is_anonymous: Boolean(row.is_anonymous),
  };
}

export const USER_SQL = `
  select u.*, coalesce((select json_agg(i) from auth.identities i where i.user_id = u.id), '[]'::json) as identities
    from auth.users u`;

/**
 * The first user matching `where` (over USER_SQL's `u`), with its identities.
 * @param {import('./context.mjs').Queryable} q
 * @param {string} where
 * @param {unknown[]} params
 * @returns {Promise<import('./context.mjs').UserRow | null>}
 */
export async function findUser(q, where, params) {
  const r = await q.query(`${USER_SQL} where ${where}`, params);
  return /** @type {import('./context.mjs').UserRow | undefined} */ (r.rows[0]) ?? null;
}

/**
 * The user by id, who must exist (read back after a change in the same request).
 * @param {import('./context.mjs').Queryable} q
 * @param {string} id
 */
export async function userById(q, id) {
  const user = await findUser(q, `u.id = $1`, [id]);
  if (!user) throw new Error(`auth.users has no row ${id}`);
  return user;
}

/**
 * @param {unknown} email
 * @returns {string}
 */
export function validateEmail(email) {
  if (typeof email !== 'string' || email.trim() === '')
    throw authError(400, 'validation_failed', 'To signup, please provide your email');
  if (email.length > 255 || !EMAIL_RE.test(email.trim())) {
    throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format');
  }
  return email.trim().toLowerCase();
}

/**
 * @param {unknown} password
 * @returns {string}
 */
export function validatePassword(password) {
  if (typeof password !== 'string' || password === '')
    throw authError(422, 'validation_failed', 'Signup requires a valid password');
  if (password.length < MIN_PASSWORD) {
    throw authError(422, 'weak_password', `Password should be at least ${MIN_PASSWORD} characters.`, {
      weak_password: { reasons: ['length'] },
    });
  }
  if (password.length > 72) throw authError(422, 'validation_failed', 'Password cannot be longer than 72 characters');
  return password;
}

/**
 * A metadata object as GoTrue takes it: anything but a JSON object is none.
 * @param {unknown} value
 * @returns {Record<string, unknown>}
 */
export function metadata(value) {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? /** @type {Record<string, unknown>} */ (value)
    : {};
}

/**
 * Moves a user to a new e-mail address: the users row and the e-mail identity, as GoTrue
 * keeps them in step. An address another user has is refused with 422 email_exists.
 * @param {import('./context.mjs').Queryable} tx
 * @param {string} userId
 * @param {unknown} rawEmail
 */
export async function changeEmail(tx, userId, rawEmail) {
  const email = validateEmail(rawEmail);
  const taken = await tx.query(`select 1 from auth.users where lower(email) = $1 and id <> $2`, [email, userId]);
  if (taken.rows.length) throw emailExists();
  await tx.query(`update auth.users set email = $2, updated_at = now() where id = $1`, [userId, email]);
  await tx.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) where user_id = $1 and provider = 'email'`,
    [userId, email],
  );
}

/**
 * @typedef {{ email: string, password: string | null, userMetadata?: Record<string, unknown>,
 *   appMetadata?: Record<string, unknown>, confirmed?: boolean }} NewUser
 */

/**
 * Inserts an e-mail user (unconfirmed unless `confirmed`) and its identity, in `tx`.
 * Returns the new id, or null when the address is taken.
 * @param {import('./context.mjs').Queryable} tx
 * @param {NewUser} fields
 * @returns {Promise<string | null>}
 */
export async function insertUser(tx, { email, password, userMetadata = {}, appMetadata = {}, confirmed = false }) {
  const exists = await tx.query(`select 1 from auth.users where lower(email) = $1`, [email]);
  if (exists.rows.length) return null;
  const app = { provider: 'email', providers: ['email'], ...appMetadata };
  /** @type {import('@electric-sql/pglite').Results<{ id: string }>} */
  const r = await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                             raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
                             confirmation_token, recovery_token, email_change_token_new, email_change,
                             email_change_token_current, phone_change, phone_change_token, reauthentication_token)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1,
             case when $2::text is null then null else extensions.crypt($2::text, extensions.gen_salt('bf')) end,
             case when $3::boolean then now() end, $4::jsonb, $5::jsonb, now(), now(), '', '', '', '', '', '', '', '')
     returning id`,
    [email, password ?? null, confirmed, JSON.stringify(app), JSON.stringify(userMetadata)],
  );
  const id = /** @type {{ id: string }} */ (r.rows[0]).id;
  await tx.query(
    `insert into auth.identities (id, user_id, provider_id, provider, identity_data, last_sign_in_at, created_at, updated_at)
     values (gen_random_uuid(), $1::uuid, $1::text, 'email',
             jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', $3::boolean, 'phone_verified', false),
             now(), now(), now())`,
    [id, email, confirmed],
  );
  return id;
}

/**
 * Creates an e-mail user with an identity, in one transaction (admin API, invitations).
 * @param {import('./context.mjs').Db} db
 * @param {NewUser} fields
 */
export async function createUser(db, fields) {
  return db.transaction(async (tx) => {
    const id = await insertUser(tx, fields);
    return id ? findUser(tx, `u.id = $1`, [id]) : null;
  });
}

/**
 * models.User.Confirm (internal/models/user.go): the address is confirmed now, the
 * confirmation token is spent, user_metadata says email_verified, and every one-time token
 * of the user goes. Purchases attach here (a trigger), and a password set before, by another
 * request, stops working (migration 20261125000100).
 * @param {import('./context.mjs').Queryable} tx
 * @param {string} userId
 */
export async function confirmUser(tx, userId) {
  await tx.query(
    `update auth.users set confirmation_token = '', email_confirmed_at = now(),
            raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
      where id = $1`,
    [userId],
  );
  await tx.query(`delete from _local.one_time_tokens where user_id = $1`, [userId]);
}

/**
 * models.User.UpdatePassword (internal/models/user.go): the new hash; pending confirmation,
 * recovery, e-mail change and reauthentication tokens are spent; every session ends but
 * `keepSession` (the caller's own, on PUT /user).
 * @param {import('./context.mjs').Queryable} tx
 * @param {string} userId
 * @param {string} password
 * @param {string | null} keepSession
 */
export async function updatePassword(tx, userId, password, keepSession) {
  await tx.query(
    `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf')),
            confirmation_token = '', confirmation_sent_at = null, recovery_token = '', recovery_sent_at = null,
            email_change_token_current = '', email_change_token_new = '', email_change_sent_at = null,
            reauthentication_token = '', reauthentication_sent_at = null, updated_at = now()
      where id = $1`,
    [userId, password],
  );
  await tx.query(`delete from _local.one_time_tokens where user_id = $1`, [userId]);
  if (keepSession) await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [userId, keepSession]);
  else await tx.query(`delete from auth.sessions where user_id = $1`, [userId]);
}

/**
 * True while a ban lasts.
 * @param {import('./context.mjs').UserRow} user
 */
export const isBanned = (user) => Boolean(user.banned_until && new Date(user.banned_until) > new Date());
