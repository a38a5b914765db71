// @ts-check
// Development-only webhook secrets: the local stand-in gives them to its Edge Functions, and
// `npm run purchase:simulate` and `npm run booking:simulate` sign with them. Published on purpose,
// like the demo keys: a real store's or booking page's secrets go only into `supabase secrets set`
// (README, "Selling" and "Coaching bookings").

export const LOCAL_FUNCTION_SECRETS = Object.freeze({
  SHOPIFY_WEBHOOK_SECRET: 'local-dev-shopify-webhook-secret',
  STRIPE_WEBHOOK_SECRET: 'whsec_local_dev_stripe_webhook_secret',
  CALCOM_WEBHOOK_SECRET: 'local-dev-calcom-webhook-secret',
  CALENDLY_WEBHOOK_SIGNING_KEY: 'local-dev-calendly-webhook-signing-key',
});

/**
 * The stand-in's transactional mail API (inbox/mail-api.mjs, at `<stand-in>/mail`) and the
 * development key it takes: given to the functions as MAIL_API_URL's key and sender. Not in
 * LOCAL_FUNCTION_SECRETS, which a `supabase start` stack's functions also get: that stack has no
 * such API, so its functions invite through Auth as before (docs/decisions/079-invitations-through-the-mail-api.md).
 */
export const LOCAL_MAIL_API = Object.freeze({
  path: '/mail',
  key: 're_local_dev_mail_api_key',
  from: 'Yes, You Can! <hello@yesyoucanbook.com>',
});
