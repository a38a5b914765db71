// The auth settings the stand-in takes from supabase/config.toml, read as `supabase start`
// reads them, so the stand-in runs the posture the repo pushes to a hosted project
// (`supabase config push`). Only the keys the stand-in acts on; a key that is absent takes the
// CLI's default.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CONFIG_TOML = path.resolve(here, '..', 'config.toml');

/**
 * @typedef {{
 *   enableConfirmations: boolean,
 *   doubleConfirmChanges: boolean,
 *   securePasswordChange: boolean,
 *   refreshTokenRotation: boolean,
 *   refreshTokenReuseInterval: number,
 *   emailSent: number,
 * }} AuthConfig
 *   enableConfirmations: [auth.email] enable_confirmations (GoTrue's MAILER_AUTOCONFIRM is its opposite).
 *   doubleConfirmChanges: [auth.email] double_confirm_changes (MAILER_SECURE_EMAIL_CHANGE_ENABLED).
 *   securePasswordChange: [auth.email] secure_password_change (SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION).
 *   refreshTokenRotation: [auth] enable_refresh_token_rotation.
 *   refreshTokenReuseInterval: [auth] refresh_token_reuse_interval, seconds.
 *   emailSent: [auth.rate_limit] email_sent, auth e-mails per hour, project-wide (RATE_LIMIT_EMAIL_SENT; email-budget.mjs).
 */

/** The Supabase CLI's defaults for these keys (pkg/config/templates/config.toml). */
export const CLI_DEFAULTS = Object.freeze({
  enableConfirmations: false,
  doubleConfirmChanges: true,
  securePasswordChange: false,
  refreshTokenRotation: true,
  refreshTokenReuseInterval: 10,
  emailSent: 2,
});

/** @type {Record<string, Record<string, [keyof AuthConfig, 'boolean' | 'integer']>>} */
const KEYS = {
  auth: {
    enable_refresh_token_rotation: ['refreshTokenRotation', 'boolean'],
    refresh_token_reuse_interval: ['refreshTokenReuseInterval', 'integer'],
  },
  'auth.rate_limit': {
    email_sent: ['emailSent', 'integer'],
  },
  'auth.email': {
    enable_confirmations: ['enableConfirmations', 'boolean'],
    double_confirm_changes: ['doubleConfirmChanges', 'boolean'],
    secure_password_change: ['securePasswordChange', 'boolean'],
  },
};

/**
 * Reads the auth settings from config.toml text: `key = value` lines under `[auth]`,
 * `[auth.email]` and `[auth.rate_limit]` (booleans and integers, trailing comments allowed). A value of the wrong kind
 * is an error rather than a silent default.
 * @param {string} toml
 * @returns {AuthConfig}
 */
export function readAuthConfig(toml) {
  /** @type {AuthConfig} */
  const config = { ...CLI_DEFAULTS };
  let table = '';
  for (const line of toml.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*(?:#.*)?$/.exec(line);
    if (header) {
      table = /** @type {string} */ (header[1]).trim();
      continue;
    }
    const setting = /^\s*([A-Za-z0-9_]+)\s*=\s*([^#]*?)\s*(?:#.*)?$/.exec(line);
    const known = setting && KEYS[table]?.[/** @type {string} */ (setting[1])];
    if (!setting || !known) continue;
    const [field, kind] = known;
    const raw = /** @type {string} */ (setting[2]);
    if (kind === 'boolean') {
      if (raw !== 'true' && raw !== 'false') throw new Error(`config.toml [${table}] ${setting[1]}: not a boolean`);
      /** @type {any} */ (config)[field] = raw === 'true';
    } else {
      if (!/^[0-9]+$/.test(raw)) throw new Error(`config.toml [${table}] ${setting[1]}: not a whole number`);
      /** @type {any} */ (config)[field] = Number(raw);
    }
  }
  return config;
}

/** The settings of the repo's supabase/config.toml (the CLI's defaults if it is missing). */
export function repoAuthConfig() {
  return readAuthConfig(existsSync(CONFIG_TOML) ? readFileSync(CONFIG_TOML, 'utf8') : '');
}
