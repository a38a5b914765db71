// The two providers' webhook signatures, defined once: the function verifies with these
// (calcom.ts, calendly.ts), the tests and `npm run booking:simulate` sign with them. Web Crypto
// only, so Deno, Node and vitest all run it.
//
// Cal.com: X-Cal-Signature-256 is the lower-case hex HMAC-SHA256 of the raw body with the
// webhook's secret; with no secret set, Cal.com sends the literal `no-secret-provided`
// (packages/features/webhooks/lib/sendPayload.ts, createWebhookSignature, in calcom/cal.com).
// Calendly: Calendly-Webhook-Signature is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + raw
// body with the subscription's signing key>`
// (https://developer.calendly.com/api-docs/overview/webhooks/webhook-signatures).

/** The header Cal.com signs a delivery in. */
export const CALCOM_SIGNATURE_HEADER = 'X-Cal-Signature-256';
/** What Cal.com sends in that header when its webhook has no secret. */
export const CALCOM_NO_SECRET = 'no-secret-provided';
/** The header Calendly signs a delivery in. */
export const CALENDLY_SIGNATURE_HEADER = 'Calendly-Webhook-Signature';

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

async function hmacSha256Hex(secret: string, data: Uint8Array<ArrayBuffer>): Promise<string> {
  const key = await crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, data));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Cal.com's signature of `rawBody`, as X-Cal-Signature-256 carries it. */
export function calcomSignature(secret: string, rawBody: Uint8Array<ArrayBuffer>): Promise<string> {
  return hmacSha256Hex(secret, rawBody);
}

/** Calendly's v1 signature of `rawBody` at `timestamp` (unix seconds), in hex. */
export function calendlySignature(key: string, timestamp: number, rawBody: Uint8Array<ArrayBuffer>): Promise<string> {
  const prefix = utf8(`${timestamp}.`);
  const data = new Uint8Array(prefix.length + rawBody.length);
  data.set(prefix, 0);
  data.set(rawBody, prefix.length);
  return hmacSha256Hex(key, data);
}

/** The Calendly-Webhook-Signature value Calendly sends with `rawBody`: `t=<timestamp>,v1=<hex>`. */
export async function calendlySignatureHeader(key: string, timestamp: number, rawBody: string): Promise<string> {
  return `t=${timestamp},v1=${await calendlySignature(key, timestamp, utf8(rawBody))}`;
}
