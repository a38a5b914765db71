// @ts-check
// The auth settings the stand-in takes from supabase/config.toml, read as `supabase start`
// reads them, so the stand-in runs the posture the repo pushes to a hosted project
// (`supabase config push`). Only the keys the stand-in acts on; a key that is absent takes the
// CLI's default (pkg/config/templates/config.toml of github.com/supabase/cli).
import { CONFIG_TOML, durationSeconds, keysOf, parseToml, repoToml } from './toml.mjs';

export { CONFIG_TOML };

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

/** @type {Readonly<AuthConfig>} The Supabase CLI's defaults for these keys. */
export const CLI_DEFAULTS = Object.freeze({
  enableConfirmations: false,
  doubleConfirmChanges: true,
  securePasswordChange: false,
  refreshTokenRotation: true,
  refreshTokenReuseInterval: 10,
  emailSent: 2,
});

/**
 * Reads the auth posture from config.toml text. A value of the wrong kind is an error rather
 * than a silent default.
 * @param {string} toml
 * @returns {AuthConfig}
 */
export function readAuthConfig(toml) {
  return authConfigOf(parseToml(toml));
}

/**
 * @param {import('./toml.mjs').TomlTable} parsed
 * @returns {AuthConfig}
 */
function authConfigOf(parsed) {
  const auth = keysOf(parsed, 'auth');
  const email = keysOf(parsed, 'auth.email');
  return {
    enableConfirmations: email.boolean('enable_confirmations', CLI_DEFAULTS.enableConfirmations),
    doubleConfirmChanges: email.boolean('double_confirm_changes', CLI_DEFAULTS.doubleConfirmChanges),
    securePasswordChange: email.boolean('secure_password_change', CLI_DEFAULTS.securePasswordChange),
    refreshTokenRotation: auth.boolean('enable_refresh_token_rotation', CLI_DEFAULTS.refreshTokenRotation),
    refreshTokenReuseInterval: auth.wholeNumber('refresh_token_reuse_interval', CLI_DEFAULTS.refreshTokenReuseInterval),
    emailSent: keysOf(parsed, 'auth.rate_limit').wholeNumber('email_sent', CLI_DEFAULTS.emailSent),
  };
}

/** The posture of the repo's supabase/config.toml (the CLI's defaults if it is missing). */
export function repoAuthConfig() {
  return authConfigOf(repoToml());
}

/**
 * The settings that are fixed for a project rather than a posture a test may change: how often
 * one address may be mailed, how long a link or code lives, the shortest password. One
 * definition, config.toml; the stand-in reads them here. (The site URL and redirect allow-list
 * are scripts/dev/auth-urls.mjs's.)
 * @typedef {{
 *   emailMaxFrequencySeconds: number,
 *   otpExpirySeconds: number,
 *   minimumPasswordLength: number,
 *   rateLimits: { tokenRefresh: number, signInSignUps: number, tokenVerifications: number },
 * }} AuthProjectSettings
 *   emailMaxFrequencySeconds: [auth.email] max_frequency.
 *   otpExpirySeconds: [auth.email] otp_expiry. minimumPasswordLength: [auth] minimum_password_length.
 *   rateLimits: [auth.rate_limit] token_refresh (RATE_LIMIT_TOKEN_REFRESH), sign_in_sign_ups
 *   (RATE_LIMIT_OTP) and token_verifications (RATE_LIMIT_VERIFY), requests per 5 minutes per IP.
 */

/**
 * @param {import('./toml.mjs').TomlTable} parsed
 * @returns {AuthProjectSettings}
 */
export function readAuthProjectSettings(parsed) {
  const auth = keysOf(parsed, 'auth');
  const email = keysOf(parsed, 'auth.email');
  const limits = keysOf(parsed, 'auth.rate_limit');
  return Object.freeze({
    // The CLI's defaults (pkg/config/templates/config.toml).
    emailMaxFrequencySeconds: durationSeconds(email.string('max_frequency', '1s'), '[auth.email] max_frequency'),
    otpExpirySeconds: email.wholeNumber('otp_expiry', 3600),
    minimumPasswordLength: auth.wholeNumber('minimum_password_length', 6),
    rateLimits: Object.freeze({
      tokenRefresh: limits.wholeNumber('token_refresh', 150),
      signInSignUps: limits.wholeNumber('sign_in_sign_ups', 30),
      tokenVerifications: limits.wholeNumber('token_verifications', 30),
    }),
  });
}

/** The repo's: supabase/config.toml read once. */
export const AUTH_SETTINGS = readAuthProjectSettings(repoToml());
