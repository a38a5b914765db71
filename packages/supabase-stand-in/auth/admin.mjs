// @ts-check
// The admin user API, /admin/users[/:id] with the service role (internal/api/admin.go).
import { fieldsOf } from './context.mjs';
import { authError, emailExists } from './errors.mjs';
import {
  changeEmail,
  confirmUser,
  createUser,
  findUser,
  metadata,
  updatePassword,
  USER_SQL,
  userJson,
  validateEmail,
  validatePassword,
} from './users.mjs';

/** @typedef {import('./context.mjs').AuthContext} AuthContext */

/**
 * A pagination parameter as GoTrue reads it (Go's strconv.ParseUint: digits only, at most
 * 2^64 - 1), else its 400 "Bad Pagination Parameters".
 * @param {URL} url
 * @param {string} name
 * @param {number} fallback
 */
function paginationParam(url, name, fallback) {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  /** @param {string} why */
  const bad = (why) =>
    authError(
      400,
      'validation_failed',
      `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(raw)}: ${why}`,
    );
  if (!/^[0-9]+$/.test(raw)) throw bad('invalid syntax');
  if (BigInt(raw) > 0xffffffffffffffffn) throw bad('value out of range');
  return Number(raw);
}

/**
 * GET /admin/users?page&per_page: the users, oldest first, and X-Total-Count.
 * @param {AuthContext} ctx
 * @param {URL} url
 */
export async function adminList(ctx, url) {
  const page = Math.max(1, paginationParam(url, 'page', 1));
  const perPage = Math.min(1000, Math.max(1, paginationParam(url, 'per_page', 50)));
  // Beyond this the offset is no longer an exact number (nor a bigint for Postgres).
  if ((page - 1) * perPage > Number.MAX_SAFE_INTEGER)
    throw authError(400, 'validation_failed', 'Bad Pagination Parameters: page is out of range');
  /** @type {import('@electric-sql/pglite').Results<{ n: number }>} */
  const count = await ctx.db.query(`select count(*)::int as n from auth.users`);
  /** @type {import('@electric-sql/pglite').Results<import('./context.mjs').UserRow>} */
  const rows = await ctx.db.query(`${USER_SQL} order by u.created_at, u.id limit $1 offset $2`, [
    perPage,
    (page - 1) * perPage,
  ]);
  return {
    body: { users: rows.rows.map(userJson), aud: 'authenticated' },
    headers: { 'X-Total-Count': String(count.rows[0]?.n ?? 0) },
  };
}

/**
 * POST /admin/users
 * @param {AuthContext} ctx
 * @param {unknown} body
 */
export async function adminCreate(ctx, body) {
  const b = fieldsOf(body);
  const email = validateEmail(b.email);
  const password = b.password === undefined ? null : validatePassword(b.password);
  const user = await createUser(ctx.db, {
    email,
    password,
    userMetadata: metadata(b.user_metadata ?? b.data),
    appMetadata: metadata(b.app_metadata),
    confirmed: Boolean(b.email_confirm),
  });
  if (!user) throw emailExists();
  return userJson(user);
}

/** @param {string} id */
function uuidOr404(id) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
    throw authError(404, 'user_not_found', 'User not found');
  return id;
}

/**
 * GET /admin/users/:id
 * @param {AuthContext} ctx
 * @param {string} id
 */
export async function adminGet(ctx, id) {
  const user = await findUser(ctx.db, `u.id = $1::text::uuid`, [uuidOr404(id)]);
  if (!user) throw authError(404, 'user_not_found', 'User not found');
  return userJson(user);
}

/**
 * PUT /admin/users/:id (adminUserUpdate), in its order: confirm, password (every session ends),
 * e-mail, then the metadata and the ban.
 * @param {AuthContext} ctx
 * @param {string} id
 * @param {unknown} body
 */
export async function adminUpdate(ctx, id, body) {
  const user = await findUser(ctx.db, `u.id = $1::text::uuid`, [uuidOr404(id)]);
  if (!user) throw authError(404, 'user_not_found', 'User not found');
  const b = fieldsOf(body);
  const password = b.password === undefined ? null : validatePassword(b.password);
  /** @param {'raw_user_meta_data' | 'raw_app_meta_data'} column */
  const merge = (column) =>
    `update auth.users set ${column} = coalesce(${column}, '{}'::jsonb) || $2::jsonb where id = $1`;
  await ctx.db.transaction(async (tx) => {
    if (b.email_confirm === true && !user.email_confirmed_at) await confirmUser(tx, id);
    if (password !== null) await updatePassword(tx, id, password, null);
    if (b.email !== undefined) await changeEmail(tx, id, b.email);
    if (b.user_metadata !== undefined)
      await tx.query(merge('raw_user_meta_data'), [id, JSON.stringify(metadata(b.user_metadata))]);
    if (b.app_metadata !== undefined)
      await tx.query(merge('raw_app_meta_data'), [id, JSON.stringify(metadata(b.app_metadata))]);
    if (b.ban_duration === 'none') await tx.query(`update auth.users set banned_until = null where id = $1`, [id]);
    await tx.query(`update auth.users set updated_at = now() where id = $1`, [id]);
  });
  return adminGet(ctx, id);
}

/**
 * DELETE /admin/users/:id
 * @param {AuthContext} ctx
 * @param {string} id
 */
export async function adminDelete(ctx, id) {
  const r = await ctx.db.query(`delete from auth.users where id = $1::text::uuid returning id`, [uuidOr404(id)]);
  if (r.rows.length === 0) throw authError(404, 'user_not_found', 'User not found');
  return {};
}
