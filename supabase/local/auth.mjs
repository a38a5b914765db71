// The GoTrue (/auth/v1) subset the app and its tests use: sign-up (auto-confirmed, like a
// local stack with e-mail confirmations off), password and refresh-token grants with
// rotation, get/update user, logout, password recovery and invitations through a local
// inbox, and the admin user API for fixtures. Users live in auth.users / auth.identities with bcrypt hashes made
// by pgcrypto, exactly as GoTrue stores them, so supabase/seed.sql works on both stacks.
// Auth runs as the database owner (GoTrue's own privileged connection), never as the caller.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { HttpError } from './http.mjs';
import { JwtError, signJwt, verifyJwt } from './keys.mjs';
import { isBadInputPgError } from './pg-errors.mjs';

// GoTrue's e-mail check (a practical subset of RFC 5322).
const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const MIN_PASSWORD = 6;
const API_VERSION = '2024-01-01';

/**
 * GoTrue's SMTP max_frequency: how soon the same address may be sent another recovery
 * e-mail. 60 seconds is GoTrue's default and the hosted platform's; supabase/config.toml
 * [auth.email] max_frequency says the same (a test checks that the two agree).
 */
export const EMAIL_MAX_FREQUENCY_SECONDS = 60;

/** How long an e-mailed link or code stays valid (config.toml [auth.email] otp_expiry). */
const OTP_EXPIRY = '1 hour';

/**
 * The invitation is the buyer's "your files are ready" e-mail (config.toml
 * [auth.email.template.invite] subject, mirrored here and checked by a test).
 */
export const INVITE_SUBJECT = 'Your files are ready';

/**
 * A GoTrue error. Clients that send X-Supabase-Api-Version get `{ code, msg }` (code = the
 * error code string); older ones get the legacy `{ code: status, error_code, msg }`. Both
 * become AuthApiError(msg, status, code) in supabase-js.
 */
export function authError(status, errorCode, msg, extra = {}) {
  const err = new HttpError(status, { code: status, error_code: errorCode, msg, ...extra });
  err.authCode = errorCode;
  return err;
}

/** GoTrue's answer when an e-mail belongs to another user already. */
function emailExists() {
  return authError(422, 'email_exists', 'A user with this email address has already been registered');
}

/** Shapes an auth error body for the request's API version. */
export function authErrorBody(req, err) {
  if (err.authCode && req.headers['x-supabase-api-version']) {
    const { code: _status, error_code, ...rest } = /** @type {any} */ (err.body);
    return { ...rest, code: error_code };
  }
  return err.body;
}

export const AUTH_HEADERS = { 'X-Supabase-Api-Version': API_VERSION };

/** supabase/config.toml [auth] site_url: where auth links lead when no allowed redirect is asked for. */
export const SITE_URL = 'http://127.0.0.1:5173';

/**
 * supabase/config.toml [auth] additional_redirect_urls, mirrored here (a test checks that the two
 * agree). Each entry allows itself and any path under it, on the same scheme, host and port.
 */
export const ADDITIONAL_REDIRECT_URLS = Object.freeze([
  'http://127.0.0.1:5173/',
  'http://localhost:5173/',
  'http://127.0.0.1:4173/',
  'http://localhost:4173/',
]);

function parseHttpUrl(text) {
  if (typeof text !== 'string' || text === '') return null;
  let u;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return null;
  return u;
}

/**
 * Where an auth link may send the browser: `candidate` when it is the site URL or one of the
 * allowed redirect URLs (or a path under one of them), else the site URL, as GoTrue falls back.
 * Anything that is not a plain http(s) URL (javascript:, protocol-relative, credentials) is refused.
 * @param {unknown} candidate
 * @param {string} siteUrl
 * @param {readonly string[]} [allowList]
 * @returns {string}
 */
export function safeRedirect(candidate, siteUrl, allowList = ADDITIONAL_REDIRECT_URLS) {
  const target = parseHttpUrl(candidate);
  if (!target) return siteUrl;
  for (const entry of [siteUrl, ...allowList]) {
    const base = parseHttpUrl(entry);
    if (!base || base.origin !== target.origin) continue;
    const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
    if (target.pathname === base.pathname || target.pathname.startsWith(prefix)) {
      target.hash = '';
      return target.href;
    }
  }
  return siteUrl;
}

const NUL_MSG = 'Request contains a NUL character (\\u0000), which is not allowed';

/**
 * True when a string anywhere in a parsed JSON value (keys included) holds a NUL character,
 * which Postgres text and jsonb cannot store. Walks with an explicit stack, no recursion.
 * @param {unknown} value
 */
export function containsNul(value) {
  /** @type {unknown[]} */
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (Array.isArray(v)) {
      // One by one: spreading a long array into push() overflows the call stack.
      for (const x of v) stack.push(x);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\0')) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

function sha256hex(text) {
  return createHash('sha256').update(text).digest('hex');
}

function userJson(row) {
  const iso = (v) => (v ? new Date(v).toISOString() : null);
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
    ...(row.invited_at ? { invited_at: iso(row.invited_at) } : {}),
    ...(row.confirmation_sent_at ? { confirmation_sent_at: iso(row.confirmation_sent_at) } : {}),
    ...(row.recovery_sent_at ? { recovery_sent_at: iso(row.recovery_sent_at) } : {}),
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
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    is_anonymous: Boolean(row.is_anonymous),
  };
}

const USER_SQL = `
  select u.*, coalesce((select json_agg(i) from auth.identities i where i.user_id = u.id), '[]'::json) as identities
    from auth.users u`;

/**
 * @param {{ db: any, baseUrl: () => string, jwtExpiry: number, siteUrl: string, quiet: boolean, log: (msg: string) => void }} deps
 */
export function createAuthService({ db, baseUrl, jwtExpiry, siteUrl, log }) {
  async function findUser(where, params, q = db) {
    const r = await q.query(`${USER_SQL} where ${where}`, params);
    return r.rows[0] ?? null;
  }

  /** Verifies a user's bearer token: signed, unexpired, a real user, a live session. */
  async function claimsOf(token) {
    if (!token) throw authError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    try {
      return await verifyJwt(token);
    } catch (e) {
      const reason = e instanceof JwtError ? e.message : 'token is malformed';
      throw authError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
    }
  }

  async function currentUser(token) {
    const claims = await claimsOf(token);
    if (!claims.sub || claims.role === 'anon' || claims.role === 'service_role') {
      throw authError(403, 'bad_jwt', 'invalid claim: missing sub claim');
    }
    if (claims.session_id) {
      const s = await db.query(`select 1 from _local.sessions where id = $1::text::uuid`, [String(claims.session_id)]);
      if (s.rows.length === 0)
        throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    const user = await findUser(`u.id = $1::text::uuid`, [String(claims.sub)]);
    if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { user, claims };
  }

  async function requireAdmin(token) {
    const claims = await claimsOf(token);
    if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') {
      throw authError(403, 'not_admin', 'User not allowed');
    }
  }

  function validateEmail(email) {
    if (typeof email !== 'string' || email.trim() === '')
      throw authError(400, 'validation_failed', 'To signup, please provide your email');
    if (email.length > 255 || !EMAIL_RE.test(email.trim())) {
      throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format');
    }
    return email.trim().toLowerCase();
  }

  function validatePassword(password) {
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
   * Moves a user to a new e-mail address: the users row and the e-mail identity, as GoTrue
   * keeps them in step. An address another user has is refused with 422 email_exists.
   */
  async function changeEmail(tx, userId, rawEmail) {
    const email = validateEmail(rawEmail);
    const taken = await tx.query(`select 1 from auth.users where lower(email) = $1 and id <> $2`, [email, userId]);
    if (taken.rows.length) throw emailExists();
    await tx.query(`update auth.users set email = $2, updated_at = now() where id = $1`, [userId, email]);
    await tx.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) where user_id = $1 and provider = 'email'`,
      [userId, email],
    );
  }

  function metadata(value) {
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  }

  /** Creates a confirmed (or unconfirmed) e-mail user with an identity, in one transaction. */
  async function createUser({ email, password, userMetadata = {}, appMetadata = {}, confirmed = true }) {
    return db.transaction(async (tx) => {
      const exists = await tx.query(`select 1 from auth.users where lower(email) = $1`, [email]);
      if (exists.rows.length) return null;
      const app = { provider: 'email', providers: ['email'], ...appMetadata };
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
      const id = r.rows[0].id;
      await tx.query(
        `insert into auth.identities (id, user_id, provider_id, provider, identity_data, last_sign_in_at, created_at, updated_at)
         values (gen_random_uuid(), $1::uuid, $1::text, 'email',
                 jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', $3::boolean, 'phone_verified', false),
                 now(), now(), now())`,
        [id, email, confirmed],
      );
      return findUser(`u.id = $1`, [id], tx);
    });
  }

  function accessToken(user, sessionId, amr = 'password') {
    const now = Math.floor(Date.now() / 1000);
    return signJwt({
      aud: 'authenticated',
      exp: now + jwtExpiry,
      iat: now,
      iss: `${baseUrl()}/auth/v1`,
      sub: user.id,
      email: user.email,
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role || 'authenticated',
      aal: 'aal1',
      amr: [{ method: amr, timestamp: now }],
      session_id: sessionId,
      is_anonymous: Boolean(user.is_anonymous),
    });
  }

  function newRefreshToken() {
    return randomBytes(16).toString('base64url');
  }

  async function issueSession(user, amr = 'password') {
    const token = newRefreshToken();
    const sessionId = await db.transaction(async (tx) => {
      const s = await tx.query(`insert into _local.sessions (user_id) values ($1) returning id`, [user.id]);
      await tx.query(`insert into _local.refresh_tokens (token, session_id, user_id) values ($1, $2, $3)`, [
        token,
        s.rows[0].id,
        user.id,
      ]);
      await tx.query(`update auth.users set last_sign_in_at = now() where id = $1`, [user.id]);
      return s.rows[0].id;
    });
    const fresh = await findUser(`u.id = $1`, [user.id]);
    return sessionJson(fresh, sessionId, token, amr);
  }

  async function sessionJson(user, sessionId, refreshToken, amr) {
    const now = Math.floor(Date.now() / 1000);
    return {
      access_token: await accessToken(user, sessionId, amr),
      token_type: 'bearer',
      expires_in: jwtExpiry,
      expires_at: now + jwtExpiry,
      refresh_token: refreshToken,
      user: userJson(user),
    };
  }

  async function signup(body) {
    const email = validateEmail(body?.email);
    const password = validatePassword(body?.password);
    const user = await createUser({ email, password, userMetadata: metadata(body?.data) });
    if (!user) throw authError(422, 'user_already_exists', 'User already registered');
    return issueSession(user);
  }

  async function passwordGrant(body) {
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
    const password = typeof body?.password === 'string' ? body.password : '';
    if (!email || !password) throw authError(400, 'validation_failed', 'missing email or phone');
    const user = await findUser(
      `lower(u.email) = $1 and u.deleted_at is null and u.encrypted_password is not null and u.encrypted_password <> ''
         and u.encrypted_password = extensions.crypt($2, u.encrypted_password)`,
      [email, password],
    );
    if (!user) throw authError(400, 'invalid_credentials', 'Invalid login credentials');
    if (!user.email_confirmed_at) throw authError(400, 'email_not_confirmed', 'Email not confirmed');
    if (user.banned_until && new Date(user.banned_until) > new Date())
      throw authError(400, 'user_banned', 'User is banned');
    return issueSession(user);
  }

  async function refreshGrant(body) {
    const token = typeof body?.refresh_token === 'string' ? body.refresh_token : '';
    if (!token) throw authError(400, 'validation_failed', 'refresh_token required');
    const next = newRefreshToken();
    const result = await db.transaction(async (tx) => {
      const r = await tx.query(`select * from _local.refresh_tokens where token = $1 for update`, [token]);
      const row = r.rows[0];
      if (!row)
        return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') };
      if (row.revoked)
        return { error: authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used') };
      await tx.query(`update _local.refresh_tokens set revoked = true where token = $1`, [token]);
      await tx.query(`insert into _local.refresh_tokens (token, session_id, user_id, parent) values ($1, $2, $3, $4)`, [
        next,
        row.session_id,
        row.user_id,
        token,
      ]);
      await tx.query(`update _local.sessions set refreshed_at = now() where id = $1`, [row.session_id]);
      return { sessionId: row.session_id, userId: row.user_id };
    });
    if (result.error) throw result.error;
    const user = await findUser(`u.id = $1`, [result.userId]);
    if (!user) throw authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    return sessionJson(user, result.sessionId, next, 'password');
  }

  async function updateUser(token, body) {
    const { user } = await currentUser(token);
    const b = body && typeof body === 'object' ? body : {};
    await db.transaction(async (tx) => {
      if (b.password !== undefined) {
        const password = validatePassword(b.password);
        const same = await tx.query(
          `select encrypted_password = extensions.crypt($2, encrypted_password) as same from auth.users where id = $1`,
          [user.id, password],
        );
        if (same.rows[0]?.same)
          throw authError(422, 'same_password', 'New password should be different from the old password.');
        await tx.query(
          `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf')), updated_at = now() where id = $1`,
          [user.id, password],
        );
      }
      if (b.email !== undefined && String(b.email).trim().toLowerCase() !== user.email) {
        await changeEmail(tx, user.id, b.email);
      }
      if (b.data !== undefined) {
        await tx.query(
          `update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = now() where id = $1`,
          [user.id, JSON.stringify(metadata(b.data))],
        );
      }
    });
    return userJson(await findUser(`u.id = $1`, [user.id]));
  }

  async function logout(token, scope) {
    const { user, claims } = await currentUser(token);
    if (scope === 'global') await db.query(`delete from _local.sessions where user_id = $1`, [user.id]);
    else if (scope === 'others')
      await db.query(`delete from _local.sessions where user_id = $1 and id <> $2::text::uuid`, [
        user.id,
        String(claims.session_id ?? '00000000-0000-0000-0000-000000000000'),
      ]);
    else if (claims.session_id)
      await db.query(`delete from _local.sessions where id = $1::text::uuid`, [String(claims.session_id)]);
  }

  /** Writes the mail the hosted auth server would send, prints it and keeps it for GET /inbox. */
  async function sendMail(recipient, subject, body, link, otp) {
    await db.query(`insert into _local.mail (recipient, subject, body, link, otp) values ($1, $2, $3, $4, $5)`, [
      recipient,
      subject,
      body,
      link,
      otp,
    ]);
    log(`\n[local mail] To: ${recipient}\n[local mail] Subject: ${subject}\n${body}\n`);
  }

  /** A 6-digit code and the hash its link carries: GoTrue's GenerateTokenHash(email, otp). */
  function newOneTimeToken(email) {
    const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
    return { otp, tokenHash: sha256hex(email + otp) };
  }

  /** Keeps one live token of a type per user, as GoTrue's one_time_tokens does. */
  async function storeOneTimeToken(tx, userId, tokenType, tokenHash, otp, redirect) {
    await tx.query(`delete from _local.one_time_tokens where user_id = $1 and token_type = $2`, [userId, tokenType]);
    await tx.query(
      `insert into _local.one_time_tokens (user_id, token_type, token_hash, otp, redirect_to) values ($1, $2, $3, $4, $5)`,
      [userId, tokenType, tokenHash, otp, redirect],
    );
  }

  function verifyLink(tokenHash, type, redirect) {
    return `${baseUrl()}/auth/v1/verify?token=${tokenHash}&type=${type}&redirect_to=${encodeURIComponent(redirect)}`;
  }

  async function recover(body, redirectTo) {
    if (typeof body?.email !== 'string' || body.email === '')
      throw authError(400, 'validation_failed', 'Password recovery requires an email');
    const email = validateEmail(body.email);
    const user = await findUser(`lower(u.email) = $1 and u.deleted_at is null`, [email]);
    // Like GoTrue: the same answer whether or not the address has an account.
    if (!user) return {};
    const { otp, tokenHash } = newOneTimeToken(email);
    const redirect = safeRedirect(redirectTo, siteUrl);
    const limited = await db.transaction(async (tx) => {
      // GoTrue's validateSentWithinFrequencyLimit, as one check-and-set so two requests
      // racing each other cannot both send.
      const sent = await tx.query(
        `update auth.users set recovery_sent_at = now()
          where id = $1 and (recovery_sent_at is null or recovery_sent_at + make_interval(secs => $2) <= now())
          returning id`,
        [user.id, EMAIL_MAX_FREQUENCY_SECONDS],
      );
      if (sent.rows.length === 0) {
        const left = await tx.query(
          `select trunc(extract(epoch from recovery_sent_at + make_interval(secs => $2) - now()))::int as s
             from auth.users where id = $1`,
          [user.id, EMAIL_MAX_FREQUENCY_SECONDS],
        );
        return Math.max(0, left.rows[0]?.s ?? 0);
      }
      await storeOneTimeToken(tx, user.id, 'recovery', tokenHash, otp, redirect);
      return null;
    });
    if (limited !== null) {
      throw authError(
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${limited} seconds.`,
      );
    }
    const link = verifyLink(tokenHash, 'recovery', redirect);
    await sendMail(
      email,
      'Reset Your Password',
      `Follow this link to reset the password for your user:\n${link}\n\nAlternatively, enter the code: ${otp}`,
      link,
      otp,
    );
    return {};
  }

  /**
   * POST /invite (service role), GoTrue's Invite: a confirmed user is refused (422
   * email_exists); an unconfirmed one gets a new invitation (the old link stops working);
   * otherwise an unconfirmed user without a password is created. The e-mail's link is a
   * `type=invite` verify link; accepting it confirms the address and opens a session.
   */
  async function invite(body, redirectTo) {
    if (typeof body?.email !== 'string' || body.email === '')
      throw authError(400, 'validation_failed', 'An email address is required');
    const email = validateEmail(body.email);
    let user = await findUser(`lower(u.email) = $1`, [email]);
    if (user?.email_confirmed_at) throw emailExists();
    user ??= await createUser({ email, password: null, userMetadata: metadata(body?.data), confirmed: false });
    // Created by a racing request in between, and so maybe confirmed already: refuse as GoTrue's unique index would.
    if (!user) throw emailExists();
    const { otp, tokenHash } = newOneTimeToken(email);
    const redirect = safeRedirect(redirectTo, siteUrl);
    const userId = user.id;
    await db.transaction(async (tx) => {
      await storeOneTimeToken(tx, userId, 'confirmation', tokenHash, otp, redirect);
      await tx.query(
        `update auth.users set invited_at = now(), confirmation_sent_at = now(), confirmation_token = $2, updated_at = now()
          where id = $1`,
        [userId, tokenHash],
      );
    });
    const link = verifyLink(tokenHash, 'invite', redirect);
    await sendMail(
      email,
      INVITE_SUBJECT,
      `Thank you for your purchase. Your files are ready.\n\nFollow this link to accept the invitation and choose your password:\n${link}\n\nAlternatively, enter the code: ${otp}`,
      link,
      otp,
    );
    return userJson(await findUser(`u.id = $1`, [userId]));
  }

  /** Which stored token a verify `type` may consume (GoTrue's verifyTokenHash). */
  const TOKEN_TYPES = {
    recovery: ['recovery'],
    magiclink: ['recovery'],
    invite: ['confirmation'],
    signup: ['confirmation'],
    email: ['confirmation', 'recovery'],
  };

  /**
   * Consumes a one-time token (by link hash, or e-mail + code) of a type the verify `type`
   * accepts, confirms the address as GoTrue does (an invitation or sign-up confirms it; so does
   * a recovery for an unconfirmed user), and opens a session.
   */
  async function consumeToken(type, { tokenHash, email, otp }) {
    const kinds = TOKEN_TYPES[/** @type {keyof typeof TOKEN_TYPES} */ (type)];
    if (!kinds) throw authError(400, 'validation_failed', 'Verify requires a verification type');
    const hash = tokenHash || (email && otp ? sha256hex(String(email).trim().toLowerCase() + String(otp)) : null);
    if (!hash) throw authError(400, 'validation_failed', 'Verify requires a token or a token hash');
    const row = await db.transaction(async (tx) => {
      const r = await tx.query(
        `delete from _local.one_time_tokens
          where token_hash = $1 and token_type = any($2::text[]) and created_at > now() - $3::interval
          returning user_id, redirect_to, token_type`,
        [hash, kinds, OTP_EXPIRY],
      );
      const used = r.rows[0];
      if (!used) return null;
      if (used.token_type === 'confirmation') {
        // GoTrue's signupVerify: an invited user without a password gets a random one (the
        // app then asks for a real one), and the link's token is spent.
        await tx.query(
          `update auth.users
              set encrypted_password = case when coalesce(encrypted_password, '') = '' and invited_at is not null
                                            then extensions.crypt(encode(extensions.gen_random_bytes(32), 'hex'), extensions.gen_salt('bf'))
                                            else encrypted_password end,
                  confirmation_token = '', updated_at = now()
            where id = $1`,
          [used.user_id],
        );
      } else {
        await tx.query(`update auth.users set recovery_token = '', updated_at = now() where id = $1`, [used.user_id]);
      }
      // Confirming fires whatever waits for a confirmed address (purchases attach then).
      await tx.query(`update auth.users set email_confirmed_at = now() where id = $1 and email_confirmed_at is null`, [
        used.user_id,
      ]);
      await tx.query(
        `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb
          where user_id = $1 and provider = 'email'`,
        [used.user_id],
      );
      return used;
    });
    if (!row) throw authError(403, 'otp_expired', 'Email link is invalid or has expired');
    const user = await findUser(`u.id = $1`, [row.user_id]);
    if (!user) throw authError(403, 'otp_expired', 'Email link is invalid or has expired');
    return { session: await issueSession(user, 'otp'), redirectTo: row.redirect_to };
  }

  /**
   * A pagination parameter as GoTrue reads it (Go's strconv.ParseUint: digits only, at most
   * 2^64 - 1), else its 400 "Bad Pagination Parameters".
   */
  function paginationParam(url, name, fallback) {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === '') return fallback;
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

  async function adminList(url) {
    const page = Math.max(1, paginationParam(url, 'page', 1));
    const perPage = Math.min(1000, Math.max(1, paginationParam(url, 'per_page', 50)));
    // Beyond this the offset is no longer an exact number (nor a bigint for Postgres).
    if ((page - 1) * perPage > Number.MAX_SAFE_INTEGER)
      throw authError(400, 'validation_failed', 'Bad Pagination Parameters: page is out of range');
    const total = (await db.query(`select count(*)::int as n from auth.users`)).rows[0].n;
    const rows = (
      await db.query(`${USER_SQL} order by u.created_at, u.id limit $1 offset $2`, [perPage, (page - 1) * perPage])
    ).rows;
    return { body: { users: rows.map(userJson), aud: 'authenticated' }, headers: { 'X-Total-Count': String(total) } };
  }

  async function adminCreate(body) {
    const email = validateEmail(body?.email);
    const password = body?.password === undefined ? null : validatePassword(body.password);
    const user = await createUser({
      email,
      password,
      userMetadata: metadata(body?.user_metadata ?? body?.data),
      appMetadata: metadata(body?.app_metadata),
      confirmed: Boolean(body?.email_confirm),
    });
    if (!user) throw emailExists();
    return userJson(user);
  }

  function uuidOr404(id) {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
      throw authError(404, 'user_not_found', 'User not found');
    return id;
  }

  async function adminGet(id) {
    const user = await findUser(`u.id = $1::text::uuid`, [uuidOr404(id)]);
    if (!user) throw authError(404, 'user_not_found', 'User not found');
    return userJson(user);
  }

  async function adminUpdate(id, body) {
    const user = await findUser(`u.id = $1::text::uuid`, [uuidOr404(id)]);
    if (!user) throw authError(404, 'user_not_found', 'User not found');
    const b = body && typeof body === 'object' ? body : {};
    await db.transaction(async (tx) => {
      if (b.password !== undefined) {
        await tx.query(
          `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf')) where id = $1`,
          [id, validatePassword(b.password)],
        );
      }
      if (b.email !== undefined) await changeEmail(tx, id, b.email);
      if (b.email_confirm === true)
        await tx.query(`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1`, [
          id,
        ]);
      if (b.user_metadata !== undefined)
        await tx.query(
          `update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb where id = $1`,
          [id, JSON.stringify(metadata(b.user_metadata))],
        );
      if (b.app_metadata !== undefined)
        await tx.query(
          `update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || $2::jsonb where id = $1`,
          [id, JSON.stringify(metadata(b.app_metadata))],
        );
      if (b.ban_duration === 'none') await tx.query(`update auth.users set banned_until = null where id = $1`, [id]);
      await tx.query(`update auth.users set updated_at = now() where id = $1`, [id]);
    });
    return adminGet(id);
  }

  async function adminDelete(id) {
    const r = await db.query(`delete from auth.users where id = $1::text::uuid returning id`, [uuidOr404(id)]);
    if (r.rows.length === 0) throw authError(404, 'user_not_found', 'User not found');
    return {};
  }

  async function inbox(url) {
    const email = url.searchParams.get('email');
    if (email?.includes('\0')) throw new HttpError(400, { message: `email: ${NUL_MSG}` });
    const r = await db.query(
      `select id, recipient as to, subject, body, link, otp, created_at from _local.mail
        where $1::text is null or recipient = lower($1::text) order by id desc limit 100`,
      [email],
    );
    return { messages: r.rows };
  }

  /**
   * Auth's answer to an error from an endpoint: anything Postgres refuses because of the data
   * sent (an invalid byte, a value out of range, a statement too complex) is the caller's error,
   * 400, not 500; two requests racing for one address get what GoTrue's check would answer.
   * @param {unknown} err
   */
  function asAuthError(err) {
    if (isBadInputPgError(err))
      return authError(400, 'validation_failed', `Invalid input: ${/** @type {Error} */ (err).message}`);
    const e = /** @type {any} */ (err);
    if (e?.code === '23505' && /email/.test(`${e.constraint ?? ''} ${e.detail ?? ''}`)) return emailExists();
    return err;
  }

  /**
   * NUL cannot be stored in Postgres text or jsonb: refused up front, in the query string and
   * anywhere in a JSON body, with GoTrue's validation error (not a database error later).
   * @param {URL} url
   */
  function refuseNulQuery(url) {
    for (const [k, v] of url.searchParams) {
      if (k.includes('\0') || v.includes('\0')) throw authError(400, 'validation_failed', NUL_MSG);
    }
  }

  /** @param {unknown} body */
  function refuseNulBody(body) {
    if (containsNul(body)) throw authError(400, 'validation_failed', NUL_MSG);
    return body;
  }

  const health = () => ({ version: 'local-stand-in', name: 'GoTrue', description: 'local stand-in for GoTrue' });

  const settings = () => ({
    external: { email: true, phone: false },
    disable_signup: false,
    mailer_autoconfirm: true,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  });

  /** POST /token?grant_type=password|refresh_token */
  async function token(grant, body) {
    if (grant === 'password') return passwordGrant(await body());
    if (grant === 'refresh_token') return refreshGrant(await body());
    throw authError(400, 'validation_failed', 'unsupported_grant_type');
  }

  /** GET /user */
  async function getUser(token) {
    return userJson((await currentUser(token)).user);
  }

  /** POST /verify: a token hash, or e-mail + code, as JSON; answers a session. */
  async function verify(body) {
    const b = /** @type {any} */ (body) ?? {};
    const { session } = await consumeToken(String(b.type ?? ''), {
      tokenHash: b.token_hash,
      email: b.email,
      otp: b.token,
    });
    return session;
  }

  /**
   * GET /verify: the e-mailed link. Answers where to send the browser: `redirect_to` (checked
   * again, as whoever holds the link can edit it) with a session, or GoTrue's error, in the fragment.
   * @param {URL} url
   * @returns {Promise<string>}
   */
  async function followLink(url) {
    const type = url.searchParams.get('type') ?? 'recovery';
    try {
      const { session, redirectTo } = await consumeToken(type, { tokenHash: url.searchParams.get('token') ?? '' });
      const asked = url.searchParams.get('redirect_to');
      const target = asked ? safeRedirect(asked, siteUrl) : safeRedirect(redirectTo, siteUrl);
      const fragment = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: 'bearer',
        type,
      });
      return `${target}#${fragment}`;
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // GoTrue's prepErrorRedirectURL: the OAuth error for the status, then its own code and message.
      const target = safeRedirect(url.searchParams.get('redirect_to'), siteUrl);
      const e = /** @type {any} */ (err);
      const fragment = new URLSearchParams({
        error: err.status === 403 ? 'access_denied' : 'invalid_request',
        error_code: e.authCode ?? 'otp_expired',
        error_description: e.body?.msg ?? 'Email link is invalid or has expired',
      });
      return `${target}#${fragment}`;
    }
  }

  return {
    asAuthError,
    refuseNulQuery,
    refuseNulBody,
    health,
    settings,
    signup,
    token,
    getUser,
    updateUser,
    logout,
    recover,
    invite,
    verify,
    followLink,
    requireAdmin,
    adminList,
    adminCreate,
    adminGet,
    adminUpdate,
    adminDelete,
    inbox,
  };
}
