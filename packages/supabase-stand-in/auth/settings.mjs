// @ts-check
// GET /health (internal/api/health.go, with the stand-in's own name) and GET /settings
// (internal/api/settings.go).

export const health = () => ({ version: 'local-stand-in', name: 'GoTrue', description: 'local stand-in for GoTrue' });

/**
 * GET /settings: mailer_autoconfirm is config.toml's enable_confirmations, negated.
 * @param {import('./context.mjs').AuthContext} ctx
 */
export const settings = (ctx) => ({
  external: { email: true, phone: false },
  disable_signup: false,
  mailer_autoconfirm: ctx.autoconfirm,
  phone_autoconfirm: false,
  sms_provider: '',
  saml_enabled: false,
});
