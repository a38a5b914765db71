// @ts-check
// Waits until a `supabase start` stack's edge runtime serves the purchase webhook with its
// secrets. `supabase start` starts the runtime without a health check, and a function boots on
// its first request (its npm imports are fetched then), so the first deliveries of the e2e suite
// could meet the gateway's 502 or the runtime's 503 BOOT_ERROR. This polls each provider's
// route with an unsigned POST until the function itself refuses it (401: signature missing),
// which proves the function booted and that provider's secret reached it. A 404 "provider … is
// not enabled" is a definite answer: the secret is missing, so it fails at once.
//
//   SUPABASE_URL=http://127.0.0.1:54321 node scripts/dev/wait-for-function.mjs [--limit-seconds 180]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const SECRET_OF = { shopify: 'SHOPIFY_WEBHOOK_SECRET', stripe: 'STRIPE_WEBHOOK_SECRET' };

/** The function answered, and the answer says its configuration is wrong: no point waiting. */
class NotConfigured extends Error {}

/** How long one probe may take (a first boot fetches the function's npm imports). */
const REQUEST_LIMIT_MS = 60_000;

/**
 * @param {{ url: string, providers?: Array<keyof typeof SECRET_OF>, limitMs?: number,
 *   intervalMs?: number, log?: (m: string) => void }} options
 *   limitMs: no new probe starts after it (one in flight may finish); intervalMs: the pause between two.
 * @returns {Promise<number>} how many requests it took
 */
export async function waitForPurchaseWebhook({
  url,
  providers = ['shopify', 'stripe'],
  limitMs = 180_000,
  intervalMs = 1_000,
  log = () => {},
}) {
  const base = url.replace(/\/+$/, '');
  const deadline = Date.now() + limitMs;
  let requests = 0;
  for (const provider of providers) {
    const endpoint = `${base}/functions/v1/purchase-webhook/${provider}`;
    let last = '';
    for (;;) {
      requests += 1;
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
          // One request's own bound; the deadline is checked between requests.
          signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
        });
        const text = await res.text();
        let body = null;
        try {
          body = JSON.parse(text);
        } catch {
          // not the function's JSON: the gateway's or the runtime's answer
        }
        if (res.status === 401 && body?.ok === false) {
          log(`${provider}: served (${res.status} ${body.error})`);
          break;
        }
        if (res.status === 404 && body?.ok === false && /not enabled/.test(String(body.error))) {
          throw new NotConfigured(`${endpoint}: ${body.error}; ${SECRET_OF[provider]} did not reach the function`);
        }
        last = `${res.status} ${text.slice(0, 300)}`;
      } catch (err) {
        if (err instanceof NotConfigured) throw err;
        last = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      }
      if (Date.now() + intervalMs > deadline) {
        throw new Error(`${endpoint}: not served within ${limitMs / 1000} s; last answer: ${last}`);
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
  return requests;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { 'limit-seconds': { type: 'string', default: '180' } } });
  const url = process.env.SUPABASE_URL;
  if (!url) {
    console.error("wait-for-function: set SUPABASE_URL (the stack's API URL, from `supabase status -o env`)");
    process.exit(1);
  }
  waitForPurchaseWebhook({ url, limitMs: Number(values['limit-seconds']) * 1000, log: console.log }).then(
    (requests) => console.log(`purchase-webhook is served (${requests} requests)`),
    (err) => {
      console.error(`wait-for-function: ${err instanceof Error ? err.message : err}`);
      process.exit(1);
    },
  );
}
