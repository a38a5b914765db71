// @ts-check
// Development-only webhook secrets: the local stand-in gives them to its Edge Functions and
// `npm run purchase:simulate` signs with them. Published on purpose, like the demo keys: a real
// store's secrets go only into `supabase secrets set` (README, "Selling").

export const LOCAL_FUNCTION_SECRETS = Object.freeze({
  SHOPIFY_WEBHOOK_SECRET: 'local-dev-shopify-webhook-secret',
  STRIPE_WEBHOOK_SECRET: 'whsec_local_dev_stripe_webhook_secret',
});
