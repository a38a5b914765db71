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
 * The direction of `created_at` the list is sorted in (internal/api/sorting.go sort, called by
 * admin.go adminUsers with created_at the one field allowed): newest first unless a `sort`
 * parameter says `created_at asc`; any other field or direction is 400 "Bad Sort Parameters".
 * @param {URL} url
 * @returns {'asc' | 'desc'}
 */
function sortDirection(url) {
  /** @type {Array<'asc' | 'desc'>} */
  const dirs = url.searchParams.getAll('sort').map((value) => {
    const space = value.indexOf(' ');
    const field = space < 0 ? value : value.slice(0, space);
    const dir = space < 0 ? 'desc' : value.slice(space + 1);
    const bad = (/** @type {string} */ why) => authError(400, 'validation_failed', `Bad Sort Parameters: ${why}`);
    if (field !== 'created_at') throw bad(`bad field for sort '${field}'`);
    if (!/^(asc|desc)$/i.test(dir)) throw bad(`bad direction for sort '${dir}', only 'asc' and 'desc' allowed`);
    return /** @type {'asc' | 'desc'} */ (dir.toLowerCase());
  });
  return dirs[0] ?? 'desc';
}

/**
 * Go's url.QueryEscape: only letters, digits and `-_.~` stay as they are, a space is `+`.
 * @param {string} s
 */
const goQueryEscape = (s) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/**
 * The admin list's own address with `page` set, as GoTrue writes it: the path GoTrue serves (the
 * gateway takes /auth/v1 off), the query re-encoded by Go's url.Values.Encode (keys sorted).
 * @param {URL} url
 * @param {number} page
 */
function pageUrl(url, page) {
  const query = new URLSearchParams(url.searchParams);
  query.set('page', String(page));
  const keys = [...new Set(query.keys())].sort();
  const pairs = keys.flatMap((k) => query.getAll(k).map((v) => `${goQueryEscape(k)}=${goQueryEscape(v)}`));
  return `/admin/users?${pairs.join('&')}`;
}

/**
 * GoTrue's paging headers (internal/api/pagination.go addPaginationHeaders): `Link` with the
 * next page (when there is one) and the last, and `X-Total-Count`.
 * @param {URL} url
 * @param {number} page  the page asked for
 * @param {number} perPage
 * @param {number} total
 */
function paginationHeaders(url, page, perPage, total) {
  const totalPages = Math.ceil(total / perPage);
  const next = totalPages > page ? `<${pageUrl(url, page + 1)}>; rel="next", ` : '';
  return { Link: `${next}<${pageUrl(url, totalPages)}>; rel="last"`, 'X-Total-Count': String(total) };
}

/**
 * GET /admin/users?page&per_page&sort&filter (internal/api/admin.go adminUsers, models.FindUsersInAudience):
 * newest first by default, `filter` matching the e-mail (LIKE) or user_metadata.full_name (ILIKE),
 * with GoTrue's Link and X-Total-Count headers.
 * @param {AuthContext} ctx
 * @param {URL} url
 */
export async function adminList(ctx, url) {
  const dir = sortDirection(url);
  const asked = paginationParam(url, 'page', 1);
  const page = Math.max(1, asked);
  const perPage = Math.min(1000, Math.max(1, paginationParam(url, 'per_page', 50)));
  // Beyond this the offset is no longer an exact number (nor a bigint for Postgres).
  if ((page - 1) * perPage > Number.MAX_SAFE_INTEGER)
    throw authError(400, 'validation_failed', 'Bad Pagination Parameters: page is out of range');
  const filter = url.searchParams.get('filter') ?? '';
  const params = filter ? [`%${filter}%`] : [];
  const where = filter ? `where (u.email like $1 or u.raw_user_meta_data->>'full_name' ilike $1)` : '';
  const n = params.length;
  /** @type {import('@electric-sql/pglite').Results<{ n: number }>} */
  const count = await ctx.db.query(`select count(*)::int as n from auth.users u ${where}`, params);
  /** @type {import('@electric-sql/pglite').Results<import('./context.mjs').UserRow>} */
  const rows = await ctx.db.query(
    `${USER_SQL} ${where} order by u.created_at ${dir}, u.id ${dir} limit $${n + 1} offset $${n + 2}`,
    [...params, perPage, (page - 1) * perPage],
  );
  const total = count.rows[0]?.n ?? 0;
  return {
    body: { users: rows.rows.map(userJson), aud: 'authenticated' },
    headers: paginationHeaders(url, asked, perPage, total),
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
