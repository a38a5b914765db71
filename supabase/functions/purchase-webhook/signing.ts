// The webhook signatures, defined once: what Shopify and Stripe sign and how their headers
// carry it. The function verifies deliveries with these (shopify.ts, stripe.ts); the tests
// (test-support.ts) and `npm run purchase:simulate` sign with them. Web Crypto only, so Deno,
// Node and vitest all run it.
//
// Shopify: https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook
// Stripe:  https://docs.stripe.com/webhooks#verify-manually
import { concatBytes, hmacSha256, toBase64, toHex, utf8 } from './crypto.ts';

/** The header Shopify signs a delivery in. */
export const SHOPIFY_SIGNATURE_HEADER = 'X-Shopify-Hmac-Sha256';
/** The header Stripe signs an event in. */
export const STRIPE_SIGNATURE_HEADER = 'Stripe-Signature';

/** Shopify's signature: HMAC-SHA256 of the raw body with the app's webhook secret. */
export function shopifySignature(secret: string, rawBody: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return hmacSha256(secret, rawBody);
}

/** The X-Shopify-Hmac-Sha256 value Shopify sends with `rawBody`: the signature in base64. */
export async function shopifySignatureHeader(secret: string, rawBody: string): Promise<string> {
  return toBase64(await shopifySignature(secret, utf8(rawBody)));
}

/**
 * Stripe's v1 signature: HMAC-SHA256 of `<timestamp>.<raw body>` with the endpoint's signing
 * secret, the timestamp being the header's `t` (unix seconds).
 */
export function stripeSignature(
  secret: string,
  timestamp: number,
  rawBody: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return hmacSha256(secret, concatBytes(utf8(`${timestamp}.`), rawBody));
}

/** Stripe's v1 signature of `rawBody` at `timestamp`, in hex as the header carries it. */
export async function stripeSignatureHex(secret: string, timestamp: number, rawBody: string): Promise<string> {
  return toHex(await stripeSignature(secret, timestamp, utf8(rawBody)));
}

/** The Stripe-Signature value Stripe sends with `rawBody`: `t=<timestamp>,v1=<hex>`. */
export async function stripeSignatureHeader(secret: string, timestamp: number, rawBody: string): Promise<string> {
  return `t=${timestamp},v1=${await stripeSignatureHex(secret, timestamp, rawBody)}`;
}
