// @ts-check
// What every /auth/v1 module is given, explicitly: the database (auth runs as its owner, as
// GoTrue's own privileged connection does), where the stand-in is reachable, the site links fall
// back to, the JWT lifetime, the log, the posture read from supabase/config.toml, and the mail
// templates config.toml names.
import { createRequestLimits } from './request-limits.mjs';
import { createEmailBudget } from '../email-budget.mjs';
import { loadMailTemplates } from '../mail-templates.mjs';

/** @typedef {import('@electric-sql/pglite').PGlite} Db */
/** @typedef {import('@electric-sql/pglite').Transaction} Tx */
/** Either the database or a transaction on it. @typedef {Pick<Db, 'query'>} Queryable */

/**
 * @typedef {{
 *   db: Db,
 *   baseUrl: () => string,
 *   jwtExpiry: number,
 *   siteUrl: string,
 *   log: (msg: string) => void,
 *   config: import('../config/auth.mjs').AuthConfig,
 *   autoconfirm: boolean,
 *   mailTemplates: ReturnType<typeof loadMailTemplates>,
 *   emailBudget: ReturnType<typeof createEmailBudget>,
 *   requestLimits: ReturnType<typeof createRequestLimits>,
 * }} AuthContext
 *   autoconfirm: GoTrue's MAILER_AUTOCONFIRM, config.toml's enable_confirmations negated.
 *   emailBudget: the project's hourly e-mail budget (email-budget.mjs, GoTrue's limiter).
 *   requestLimits: GoTrue's per-IP request limits (request-limits.mjs).
 */

/**
 * An identity row of auth.identities as `json_agg` answers it.
 * @typedef {{
 *   id: string, provider_id: string, provider: string, identity_data: Record<string, unknown>,
 *   email: string | null, last_sign_in_at: string | null, created_at: string | null, updated_at: string | null,
 * }} IdentityRow
 */

/**
 * A row of auth.users (the columns the stand-in reads) with its identities.
 * @typedef {{
 *   id: string, aud: string | null, role: string | null, email: string, phone: string | null,
 *   encrypted_password: string | null,
 *   email_confirmed_at: Date | null, confirmed_at: Date | null, last_sign_in_at: Date | null,
 *   invited_at: Date | null, confirmation_sent_at: Date | null, recovery_sent_at: Date | null,
 *   email_change: string | null, email_change_sent_at: Date | null, email_change_confirm_status: number | null,
 *   banned_until: Date | null, deleted_at: Date | null, is_anonymous: boolean | null,
 *   raw_app_meta_data: Record<string, unknown> | null, raw_user_meta_data: Record<string, unknown> | null,
 *   created_at: Date | null, updated_at: Date | null,
 *   identities: IdentityRow[] | null,
 * }} UserRow
 */

/** A JSON request body as the routes hand it over: any JSON value, or undefined when empty. */
/** @typedef {unknown} Body */

/**
 * A JSON object's fields, or none when the body is not an object.
 * @param {Body} body
 * @returns {Record<string, unknown>}
 */
export function fieldsOf(body) {
  return body && typeof body === 'object' && !Array.isArray(body) ? /** @type {Record<string, unknown>} */ (body) : {};
}

/**
 * @param {unknown} v
 * @returns {string}
 */
export const stringOr = (v, fallback = '') => (typeof v === 'string' ? v : fallback);

/**
 * @param {{ db: Db, baseUrl: () => string, jwtExpiry: number, siteUrl: string, log: (msg: string) => void,
 *   config: import('../config/auth.mjs').AuthConfig, mailTemplates?: ReturnType<typeof loadMailTemplates>,
 *   clock?: () => number }} deps
 *   mailTemplates: the auth e-mails; default supabase/config.toml's templates (mail-templates.mjs).
 *   clock: the e-mail budget's clock, epoch ms (tests).
 * @returns {AuthContext}
 */
export function createAuthContext({ mailTemplates = loadMailTemplates(), clock, ...deps }) {
  const autoconfirm = !deps.config.enableConfirmations;
  const emailBudget = createEmailBudget({
    perHour: deps.config.emailSent,
    autoconfirm,
    ...(clock ? { now: clock } : {}),
  });
  const requestLimits = createRequestLimits(clock ? { now: clock } : {});
  return { ...deps, mailTemplates, autoconfirm, emailBudget, requestLimits };
}
