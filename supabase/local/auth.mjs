// The GoTrue (/auth/v1) subset the app and its tests use: sign-up, resend, verify, password
// and refresh-token grants with rotation and the reuse interval, get/update user (e-mail change
// with double confirmation), logout, password recovery and invitations through a local inbox,
// and the admin user API for fixtures. The posture (e-mail confirmations on or off, double
// confirmation of e-mail changes, reauthentication for a password change, refresh tokens) comes
// from supabase/config.toml as `supabase start` reads it (auth-config.mjs); each behaviour says
// which file of GoTrue's source (github.com/supabase/auth) it follows. Users live in auth.users / auth.identities with bcrypt hashes made
// by pgcrypto, exactly as GoTrue stores them, so supabase/seed.sql works on both stacks.
// Auth runs as the database owner (GoTrue's own privileged connection), never as the caller.
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { HttpError } from './http.mjs';
import { JwtError, signJwt, verifyJwt } from './keys.mjs';
import { isBadInputPgError } from './pg-errors.mjs';
import { repoAuthConfig } from './auth-config.mjs';
import { createEmailBudget, EMAIL_BUDGET_MESSAGE } from './email-budget.mjs';
import { loadMailTemplates } from './mail-templates.mjs';

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
    ...(row.email_change ? { new_email: row.email_change } : {}),
    ...(row.email_change_sent_at ? { email_change_sent_at: iso(row.email_change_sent_at) } : {}),
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

/** GoTrue's singleConfirmationAccepted (internal/api/verify.go). */
const SINGLE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/**
 * @param {{ db: any, baseUrl: () => string, jwtExpiry: number, siteUrl: string, quiet: boolean,
 *   log: (msg: string) => void, config?: import('./auth-config.mjs').AuthConfig,
 *   mailTemplates?: ReturnType<typeof loadMailTemplates>, clock?: () => number }} deps
 *   config: the auth posture; default supabase/config.toml's. mailTemplates: the auth e-mails;
 *   default supabase/config.toml's templates (mail-templates.mjs). clock: the e-mail budget's
 *   clock, epoch ms (tests).
 */
export function createAuthService({
  db,
  baseUrl,
  jwtExpiry,
  siteUrl,
  log,
  config = repoAuthConfig(),
  mailTemplates = loadMailTemplates(),
  clock,
}) {
  /** GoTrue's MAILER_AUTOCONFIRM: e-mail confirmations off. */
  const autoconfirm = !config.enableConfirmations;
  /** The project's hourly e-mail budget (email-budget.mjs, GoTrue's limiter). */
  const emailBudget = createEmailBudget({ perHour: config.emailSent, autoconfirm, ...(clock ? { now: clock } : {}) });
  /** sendEmail (internal/api/mail.go): one e-mail from the budget, or 429 and nothing is sent. */
  function spendEmailBudget() {
    if (!emailBudget.spend()) throw authError(429, 'over_email_send_rate_limit', EMAIL_BUDGET_MESSAGE);
  }

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
    /** @type {{ id: string, created_at: Date } | null} */
    let session = null;
    if (claims.session_id) {
      const s = await db.query(`select id, created_at from auth.sessions where id = $1::text::uuid`, [
        String(claims.session_id),
      ]);
      session = s.rows[0] ?? null;
      if (!session) throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    const user = await findUser(`u.id = $1::text::uuid`, [String(claims.sub)]);
    if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { user, claims, session };
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

  /**
   * Inserts an e-mail user (unconfirmed unless `confirmed`) and its identity, in `tx`.
   * Returns the new id, or null when the address is taken.
   */
  async function insertUser(tx, { email, password, userMetadata = {}, appMetadata = {}, confirmed = false }) {
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
    return id;
  }

  /** Creates an e-mail user with an identity, in one transaction (admin API, invitations). */
  async function createUser(fields) {
    return db.transaction(async (tx) => {
      const id = await insertUser(tx, fields);
      return id ? findUser(`u.id = $1`, [id], tx) : null;
    });
  }

  /**
   * models.User.Confirm (internal/models/user.go): the address is confirmed now, the
   * confirmation token is spent, user_metadata says email_verified, and every one-time token
   * of the user goes. Purchases attach here (a trigger), and a password set before, by another
   * request, stops working (baseline migration, section 12).
   */
  async function confirmUser(tx, userId) {
    await tx.query(
      `update auth.users set confirmation_token = '', email_confirmed_at = now(),
              raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
        where id = $1`,
      [userId],
    );
    await tx.query(`delete from _local.one_time_tokens where user_id = $1`, [userId]);
  }

  /**
   * GoTrue's validateSentWithinFrequencyLimit (internal/api/mail.go) on one of the user's
   * `*_sent_at` columns, as one check-and-set so two racing requests cannot both send: 429
   * over_email_send_rate_limit with GoTrue's wording when the last mail was under
   * max_frequency ago.
   * @param {any} tx
   * @param {string} userId
   * @param {'confirmation_sent_at' | 'recovery_sent_at' | 'email_change_sent_at'} column
   */
  async function claimEmailSend(tx, userId, column) {
    const sent = await tx.query(
      `update auth.users set ${column} = now()
        where id = $1 and (${column} is null or ${column} + make_interval(secs => $2) <= now())
        returning id`,
      [userId, EMAIL_MAX_FREQUENCY_SECONDS],
    );
    if (sent.rows.length > 0) return;
    const left = await tx.query(
      `select trunc(extract(epoch from ${column} + make_interval(secs => $2) - now()))::int as s from auth.users where id = $1`,
      [userId, EMAIL_MAX_FREQUENCY_SECONDS],
    );
    throw authError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${Math.max(0, left.rows[0]?.s ?? 0)} seconds.`,
    );
  }

  /**
   * sendConfirmation (internal/api/mail.go): within max_frequency of the last one, 429;
   * otherwise a new confirmation token (the older link stops working) and a "Confirm Your
   * Signup" mail with a type=signup link, to the address, whoever asked.
   */
  async function sendConfirmation(tx, user, redirect) {
    await claimEmailSend(tx, user.id, 'confirmation_sent_at');
    spendEmailBudget();
    const { otp, tokenHash } = newOneTimeToken(user.email);
    await storeOneTimeToken(tx, user.id, 'confirmation', tokenHash, otp, redirect);
    await tx.query(`update auth.users set confirmation_token = $2 where id = $1`, [user.id, tokenHash]);
    const link = verifyLink(tokenHash, 'signup', redirect);
    const mail = mailTemplates.render('confirmation', mailData(user, link, otp, tokenHash, redirect));
    await sendMail(user.email, mail.subject, mail.text, link, otp, tx);
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

  /** createRefreshToken (internal/models/refresh_token.go): a new session and its first refresh token. */
  async function openSession(tx, userId) {
    const token = newRefreshToken();
    const s = await tx.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal) values (gen_random_uuid(), $1, now(), now(), 'aal1') returning id`,
      [userId],
    );
    await tx.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, session_id, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, now(), now())`,
      [token, userId, s.rows[0].id],
    );
    await tx.query(`update auth.users set last_sign_in_at = now() where id = $1`, [userId]);
    return { sessionId: s.rows[0].id, token };
  }

  async function issueSession(user, amr = 'password') {
    const { sessionId, token } = await db.transaction((tx) => openSession(tx, user.id));
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

  /**
   * sanitizeUser (internal/api/signup.go): what a sign-up with a confirmed address answers
   * when confirmations are on, shaped like a new unconfirmed user, so the answer does not say
   * whether the address has an account.
   */
  function sanitizedUser(email, data) {
    const now = new Date().toISOString();
    return {
      id: randomUUID(),
      aud: 'authenticated',
      role: '',
      email,
      phone: '',
      confirmation_sent_at: now,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: data,
      identities: [],
      created_at: now,
      updated_at: now,
      is_anonymous: false,
    };
  }

  /**
   * POST /signup (internal/api/signup.go). A new address: an unconfirmed user with the
   * password; with confirmations off it is confirmed at once and signed in, with them on a
   * confirmation mail goes to the address and the answer is the user, without a session. An
   * address with an unconfirmed account: the account is not changed ("we can't be sure of
   * their claimed identity"), the typed password not saved; confirmations off confirm it and
   * sign in whoever asked, on mail it a new link (429 within max_frequency of the last). A
   * confirmed address: 422 user_already_exists with confirmations off, else an answer that
   * looks like a new sign-up and sends nothing.
   */
  async function signup(body, redirectTo) {
    const email = validateEmail(body?.email);
    const password = validatePassword(body?.password);
    const data = metadata(body?.data);
    const redirect = safeRedirect(redirectTo, siteUrl);
    const existing = await findUser(`lower(u.email) = $1`, [email]);
    if (existing?.email_confirmed_at) {
      if (autoconfirm) throw authError(422, 'user_already_exists', 'User already registered');
      return sanitizedUser(email, data);
    }
    const userId = await db.transaction(async (tx) => {
      const id = existing?.id ?? (await insertUser(tx, { email, password, userMetadata: data }));
      // Created by a racing request in between: GoTrue's unique index refuses the second.
      if (!id) throw emailExists();
      if (autoconfirm) await confirmUser(tx, id);
      else await sendConfirmation(tx, await findUser(`u.id = $1`, [id], tx), redirect);
      return id;
    });
    const user = await findUser(`u.id = $1`, [userId]);
    if (user.email_confirmed_at) return issueSession(user);
    const json = userJson(user);
    // An invited user's data stays private to whoever accepts the invitation.
    return user.invited_at ? { ...json, user_metadata: {}, identities: [] } : json;
  }

  /**
   * POST /resend (internal/api/resend.go): type signup mails a new confirmation link to an
   * unconfirmed address, type email_change the e-mail change links again. Unknown addresses,
   * confirmed ones and users with no change pending get {} and nothing is sent.
   */
  async function resend(body, redirectTo) {
    const b = body && typeof body === 'object' ? /** @type {any} */ (body) : {};
    const type = b.type;
    if (type !== 'signup' && type !== 'email_change' && type !== 'sms' && type !== 'phone_change')
      throw authError(400, 'validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change');
    const rawEmail = typeof b.email === 'string' ? b.email : '';
    if (rawEmail === '' && type === 'signup')
      throw authError(400, 'validation_failed', 'Type provided requires an email address');
    if (rawEmail === '') {
      if (typeof b.phone === 'string' && b.phone !== '')
        throw authError(400, 'phone_provider_disabled', 'Phone logins are disabled');
      throw authError(400, 'validation_failed', 'Missing email address or phone number');
    }
    if (typeof b.phone === 'string' && b.phone !== '')
      throw authError(400, 'validation_failed', 'Only an email address or phone number should be provided.');
    const email = validateEmail(rawEmail);
    if (type === 'sms' || type === 'phone_change')
      throw authError(400, 'validation_failed', 'Type provided requires a phone number');
    const user = await findUser(`lower(u.email) = $1`, [email]);
    if (!user) return {};
    if (type === 'signup' && user.email_confirmed_at) return {};
    if (type === 'email_change' && !user.email_change) return {};
    const redirect = safeRedirect(redirectTo, siteUrl);
    await db.transaction(async (tx) => {
      if (type === 'signup') await sendConfirmation(tx, user, redirect);
      else await sendEmailChange(tx, user, user.email_change, redirect);
    });
    return {};
  }

  /**
   * POST /token?grant_type=password (internal/api/token.go): the password must match a
   * non-empty hash (models.User.Authenticate), then an unconfirmed address is 400
   * email_not_confirmed.
   */
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

  /**
   * POST /token?grant_type=refresh_token (internal/tokens/service.go, RefreshTokenGrant). A
   * live token is swapped for a new one (its child). A used one is answered with the session's
   * current token when it is that token's parent (the client lost the answer), or swapped again
   * within refresh_token_reuse_interval seconds of its use; later, with rotation on, every
   * token of the session is revoked and the answer is 400 refresh_token_already_used.
   */
  async function refreshGrant(body) {
    const token = typeof body?.refresh_token === 'string' ? body.refresh_token : '';
    if (!token) throw authError(400, 'validation_failed', 'refresh_token required');
    const result = await db.transaction(async (tx) => {
      const r = await tx.query(
        `select t.*, (t.updated_at + make_interval(secs => $2) < now()) as reuse_over
           from auth.refresh_tokens t join auth.sessions s on s.id = t.session_id
          where t.token = $1 for update of t`,
        [token, config.refreshTokenReuseInterval],
      );
      const row = r.rows[0];
      if (!row)
        return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') };
      let issued = null;
      if (row.revoked) {
        const active = await tx.query(
          `select token, parent from auth.refresh_tokens where session_id = $1 and not coalesce(revoked, false)
            order by id desc limit 1`,
          [row.session_id],
        );
        if (active.rows[0]?.parent === token) issued = active.rows[0].token;
        else if (row.reuse_over) {
          if (config.refreshTokenRotation)
            await tx.query(
              `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not coalesce(revoked, false)`,
              [row.session_id],
            );
          return {
            commitError: authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
          };
        }
      }
      if (!issued) {
        // GrantRefreshTokenSwap: the token is revoked, a child takes its place.
        issued = newRefreshToken();
        await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
        await tx.query(
          `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, parent, session_id, created_at, updated_at)
           values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, $4, now(), now())`,
          [issued, row.user_id, token, row.session_id],
        );
      }
      await tx.query(
        `update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1`,
        [row.session_id],
      );
      return { sessionId: row.session_id, userId: row.user_id, issued };
    });
    if (result.error) throw result.error;
    // Committed (the family is revoked), then refused: storage.NewCommitWithError.
    if (result.commitError) throw result.commitError;
    const user = await findUser(`u.id = $1::text::uuid`, [result.userId]);
    if (!user) throw authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    if (user.banned_until && new Date(user.banned_until) > new Date())
      throw authError(400, 'user_banned', 'Invalid Refresh Token: User Banned');
    return sessionJson(user, result.sessionId, result.issued, 'password');
  }

  /**
   * models.User.UpdatePassword (internal/models/user.go): the new hash; pending confirmation,
   * recovery, e-mail change and reauthentication tokens are spent; every session ends but
   * `keepSession` (the caller's own, on PUT /user).
   */
  async function updatePassword(tx, userId, password, keepSession) {
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
   * sendEmailChange (internal/api/mail.go): within max_frequency of the last one, 429;
   * otherwise the change waits in email_change and a link goes to the new address, and, with
   * double_confirm_changes, another to the current one (each a type=email_change link).
   */
  async function sendEmailChange(tx, user, newEmail, redirect) {
    await claimEmailSend(tx, user.id, 'email_change_sent_at');
    spendEmailBudget();
    const fresh = newOneTimeToken(newEmail);
    const current = config.doubleConfirmChanges && user.email ? newOneTimeToken(user.email) : null;
    await tx.query(
      `update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
              email_change_confirm_status = 0 where id = $1`,
      [user.id, newEmail, fresh.tokenHash, current?.tokenHash ?? ''],
    );
    await tx.query(
      `delete from _local.one_time_tokens where user_id = $1 and token_type in ('email_change_new', 'email_change_current')`,
      [user.id],
    );
    if (current) {
      await storeOneTimeToken(tx, user.id, 'email_change_current', current.tokenHash, current.otp, redirect);
      const link = verifyLink(current.tokenHash, 'email_change', redirect);
      const data = {
        ...mailData(user, link, current.otp, current.tokenHash, redirect),
        NewEmail: newEmail,
        SendingTo: user.email,
      };
      const mail = mailTemplates.render('email_change', data);
      await sendMail(user.email, mail.subject, mail.text, link, current.otp, tx);
    }
    await storeOneTimeToken(tx, user.id, 'email_change_new', fresh.tokenHash, fresh.otp, redirect);
    const link = verifyLink(fresh.tokenHash, 'email_change', redirect);
    const data = {
      ...mailData(user, link, fresh.otp, fresh.tokenHash, redirect),
      NewEmail: newEmail,
      SendingTo: newEmail,
    };
    const mail = mailTemplates.render('email_change', data);
    await sendMail(newEmail, mail.subject, mail.text, link, fresh.otp, tx);
  }

  /**
   * PUT /user (internal/api/user.go, UserUpdate). A password: with secure_password_change, a
   * session older than 24 hours needs a reauthentication nonce (400 reauthentication_needed);
   * the same password again is 422 same_password; saving it ends the user's other sessions.
   * An e-mail: another user's is 422 email_exists; otherwise nothing changes until the links
   * are followed (sendEmailChange), in either posture. `data` merges into user_metadata.
   */
  async function updateUser(token, body, redirectTo) {
    const { user, session } = await currentUser(token);
    const b = body && typeof body === 'object' ? /** @type {any} */ (body) : {};
    const newEmail =
      typeof b.email === 'string' && b.email !== '' && b.email.trim().toLowerCase() !== user.email
        ? validateEmail(b.email)
        : null;
    if (newEmail) {
      const taken = await db.query(`select 1 from auth.users where lower(email) = $1 and id <> $2`, [
        newEmail,
        user.id,
      ]);
      if (taken.rows.length) throw emailExists();
    }
    const password = b.password === undefined || b.password === null ? null : validatePassword(b.password);
    if (password !== null) {
      if (config.securePasswordChange) {
        const recent = session && Date.now() <= new Date(session.created_at).getTime() + 24 * 3600 * 1000;
        if (!recent) {
          if (typeof b.nonce !== 'string' || b.nonce === '')
            throw authError(400, 'reauthentication_needed', 'Password update requires reauthentication');
          // The stand-in sends no reauthentication codes (POST /reauthenticate), so no nonce is valid.
          throw authError(403, 'reauthentication_not_valid', 'Requires reauthentication');
        }
      }
      const same = await db.query(
        `select coalesce(encrypted_password, '') <> '' and encrypted_password = extensions.crypt($2, encrypted_password) as same
           from auth.users where id = $1`,
        [user.id, password],
      );
      if (same.rows[0]?.same)
        throw authError(422, 'same_password', 'New password should be different from the old password.');
    }
    await db.transaction(async (tx) => {
      if (password !== null) await updatePassword(tx, user.id, password, session?.id ?? null);
      if (b.data !== undefined) {
        await tx.query(
          `update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = now() where id = $1`,
          [user.id, JSON.stringify(metadata(b.data))],
        );
      }
      if (newEmail) await sendEmailChange(tx, user, newEmail, safeRedirect(redirectTo, siteUrl));
    });
    return userJson(await findUser(`u.id = $1`, [user.id]));
  }

  async function logout(token, scope) {
    const { user, claims } = await currentUser(token);
    if (scope === 'global') await db.query(`delete from auth.sessions where user_id = $1`, [user.id]);
    else if (scope === 'others')
      await db.query(`delete from auth.sessions where user_id = $1 and id <> $2::text::uuid`, [
        user.id,
        String(claims.session_id ?? '00000000-0000-0000-0000-000000000000'),
      ]);
    else if (claims.session_id)
      await db.query(`delete from auth.sessions where id = $1::text::uuid`, [String(claims.session_id)]);
  }

  /**
   * The variables GoTrue passes a mail's template (internal/mailer/templatemailer/templatemailer.go).
   * @param {{ email: string, raw_user_meta_data?: unknown }} user
   * @param {string} link @param {string} otp @param {string} tokenHash @param {string} redirect
   */
  function mailData(user, link, otp, tokenHash, redirect) {
    return {
      SiteURL: siteUrl,
      ConfirmationURL: link,
      Email: user.email,
      Token: otp,
      TokenHash: tokenHash,
      Data: user.raw_user_meta_data ?? {},
      RedirectTo: redirect,
    };
  }

  /** Writes the mail the hosted auth server would send, prints it and keeps it for GET /inbox. */
  async function sendMail(recipient, subject, body, link, otp, q = db) {
    await q.query(`insert into _local.mail (recipient, subject, body, link, otp) values ($1, $2, $3, $4, $5)`, [
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

  /** POST /recover (internal/api/recover.go): the same answer whether or not the address has an account. */
  async function recover(body, redirectTo) {
    if (typeof body?.email !== 'string' || body.email === '')
      throw authError(400, 'validation_failed', 'Password recovery requires an email');
    const email = validateEmail(body.email);
    const user = await findUser(`lower(u.email) = $1 and u.deleted_at is null`, [email]);
    if (!user) return {};
    const { otp, tokenHash } = newOneTimeToken(email);
    const redirect = safeRedirect(redirectTo, siteUrl);
    await db.transaction(async (tx) => {
      await claimEmailSend(tx, user.id, 'recovery_sent_at');
      spendEmailBudget();
      await storeOneTimeToken(tx, user.id, 'recovery', tokenHash, otp, redirect);
      await tx.query(`update auth.users set recovery_token = $2 where id = $1`, [user.id, tokenHash]);
      const link = verifyLink(tokenHash, 'recovery', redirect);
      const mail = mailTemplates.render('recovery', mailData(user, link, otp, tokenHash, redirect));
      await sendMail(email, mail.subject, mail.text, link, otp, tx);
    });
    return {};
  }

  /**
   * POST /invite (service role), internal/api/invite.go: a confirmed user is refused (422
   * email_exists); an unconfirmed one, with whatever password it has, gets a new invitation (the
   * old link stops working); otherwise an unconfirmed user without a password is created. The
   * e-mail's link is a `type=invite` verify link; accepting it confirms the address and opens a
   * session. Past the project's e-mail budget, 429 over_email_send_rate_limit and no user.
   */
  async function invite(body, redirectTo) {
    if (typeof body?.email !== 'string' || body.email === '')
      throw authError(400, 'validation_failed', 'An email address is required');
    const email = validateEmail(body.email);
    let user = await findUser(`lower(u.email) = $1`, [email]);
    if (user?.email_confirmed_at) throw emailExists();
    // GoTrue creates the user and sends in one transaction: past the budget (429) neither happens.
    spendEmailBudget();
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
      const link = verifyLink(tokenHash, 'invite', redirect);
      const mail = mailTemplates.render('invite', mailData(user, link, otp, tokenHash, redirect));
      await sendMail(email, mail.subject, mail.text, link, otp, tx);
    });
    return userJson(await findUser(`u.id = $1`, [userId]));
  }

  /**
   * Which stored token a verify `type` may consume (internal/api/verify.go, verifyTokenHash):
   * `email` takes a confirmation or a recovery token, `email_change` either address's token.
   */
  const TOKEN_TYPES = {
    recovery: ['recovery'],
    magiclink: ['recovery'],
    invite: ['confirmation'],
    signup: ['confirmation'],
    email: ['confirmation', 'recovery'],
    email_change: ['email_change_current', 'email_change_new'],
  };

  /**
   * signupVerify (internal/api/verify.go): an invited user without a password gets a random one
   * (UpdatePassword: every session ends; the app then asks for a real one), then the address is
   * confirmed and the e-mail identity marked verified. A password the account had already is
   * kept by GoTrue; a trigger of the baseline migration (section 12) makes it unusable as the
   * address is confirmed, since the confirming request did not set it.
   */
  async function signupVerify(tx, user) {
    if (!user.encrypted_password && user.invited_at)
      await updatePassword(tx, user.id, randomBytes(32).toString('hex'), null);
    await confirmUser(tx, user.id);
    await tx.query(
      `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb
        where user_id = $1 and provider = 'email' and lower(identity_data ->> 'email') = lower($2)`,
      [user.id, user.email],
    );
  }

  /** recoverVerify (internal/api/verify.go): the recovery token is spent; an unconfirmed address is confirmed. */
  async function recoverVerify(tx, user) {
    await tx.query(`update auth.users set recovery_token = '' where id = $1`, [user.id]);
    await tx.query(`delete from _local.one_time_tokens where user_id = $1`, [user.id]);
    if (!user.email_confirmed_at) await confirmUser(tx, user.id);
  }

  /**
   * emailChangeVerify (internal/api/verify.go). With confirmations on and double_confirm_changes,
   * the first of the two links only records that one address agreed (false: "proceed to confirm
   * the link sent to the other email"); the second, or the only one otherwise, moves the account
   * to the new address (ConfirmEmailChange: the identity follows, marked verified; an unconfirmed
   * account is confirmed).
   */
  async function emailChangeVerify(tx, user, tokenType) {
    if (autoconfirm === false && config.doubleConfirmChanges && user.email_change_confirm_status === 0 && user.email) {
      const column = tokenType === 'email_change_current' ? 'email_change_token_current' : 'email_change_token_new';
      await tx.query(`update auth.users set email_change_confirm_status = 1, ${column} = '' where id = $1`, [user.id]);
      return false;
    }
    await tx.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true)
        where user_id = $1 and provider = 'email'`,
      [user.id, user.email_change],
    );
    await tx.query(
      `update auth.users set email = email_change, email_change = '', email_change_token_current = '',
              email_change_token_new = '', email_change_confirm_status = 0, updated_at = now()
        where id = $1`,
      [user.id],
    );
    await tx.query(`delete from _local.one_time_tokens where user_id = $1`, [user.id]);
    if (!user.email_confirmed_at) await confirmUser(tx, user.id);
    return true;
  }

  /**
   * Consumes a one-time token (by link hash, or e-mail + code) of a type the verify `type`
   * accepts, does what GoTrue's verify does for it, and opens a session, except for the first
   * of two e-mail change links (`single`).
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
      const user = await findUser(`u.id = $1`, [used.user_id], tx);
      if (!user) return null;
      if (user.banned_until && new Date(user.banned_until) > new Date())
        throw authError(403, 'user_banned', 'User is banned');
      if (used.token_type === 'confirmation') await signupVerify(tx, user);
      else if (used.token_type === 'recovery') await recoverVerify(tx, user);
      else if (!(await emailChangeVerify(tx, user, used.token_type))) return { ...used, single: true };
      return used;
    });
    if (!row) throw authError(403, 'otp_expired', 'Email link is invalid or has expired');
    if (row.single) return { session: null, redirectTo: row.redirect_to };
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
    const password = b.password === undefined ? null : validatePassword(b.password);
    // internal/api/admin.go, adminUserUpdate, in its order: confirm, password (every session
    // ends), e-mail.
    await db.transaction(async (tx) => {
      if (b.email_confirm === true && !user.email_confirmed_at) await confirmUser(tx, id);
      if (password !== null) await updatePassword(tx, id, password, null);
      if (b.email !== undefined) await changeEmail(tx, id, b.email);
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

  /** GET /settings (internal/api/settings.go): mailer_autoconfirm is config.toml's enable_confirmations, negated. */
  const settings = () => ({
    external: { email: true, phone: false },
    disable_signup: false,
    mailer_autoconfirm: autoconfirm,
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

  /**
   * POST /verify: a token hash, or e-mail + code, as JSON; answers a session, or for the first
   * of two e-mail change links GoTrue's `{ msg, code: "200" }`.
   */
  async function verify(body) {
    const b = /** @type {any} */ (body) ?? {};
    const { session } = await consumeToken(String(b.type ?? ''), {
      tokenHash: b.token_hash,
      email: b.email,
      otp: b.token,
    });
    return session ?? { msg: SINGLE_CONFIRMATION, code: '200' };
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
      // The first of two e-mail change links: prepRedirectURL's message, no session.
      if (!session) return `${target}#${new URLSearchParams({ message: SINGLE_CONFIRMATION, sb: '' })}`;
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
    resend,
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
