// Sends the purchase webhook a correctly signed sale or refund, as Shopify or Stripe would, so
// the whole flow can be tried locally (the stand-in runs the function: `npm run dev`):
//
//   npm run purchase:simulate -- --email buyer@example.com --product foundation [--refund]
//     [--provider shopify|stripe] [--order ID] [--url URL]
//
// Runs in Deno (the pinned npm package), which can import the content modules as they are.
// The order id defaults to one derived from e-mail, product and provider, so `--refund` with the
// same arguments refunds the simulated sale. URL: --url, else PURCHASE_WEBHOOK_URL, else the
// local stand-in; the provider is appended (`…/purchase-webhook/shopify`). Secrets:
// SHOPIFY_WEBHOOK_SECRET / STRIPE_WEBHOOK_SECRET, else the stand-in's local ones.
import process from 'node:process';
import { parseArgs } from 'node:util';
import { bundles } from '../../src/content/bundles.ts';
import { purchasableProducts } from '../../src/content/products.ts';
import { site } from '../../src/content/site.ts';
import { toHex, utf8 } from '../../supabase/functions/purchase-webhook/crypto.ts';
import {
  SHOPIFY_SIGNATURE_HEADER,
  shopifySignatureHeader,
  STRIPE_SIGNATURE_HEADER,
  stripeSignatureHeader,
} from '../../supabase/functions/purchase-webhook/signing.ts';
import { LOCAL_FUNCTION_SECRETS } from '../../packages/supabase-stand-in/functions/secrets.mjs';

const USAGE = `usage: npm run purchase:simulate -- --email a@b.c --product ${purchasableProducts.map((p) => p.product).join('|')} [--refund] [--provider shopify|stripe] [--order ID] [--url URL]`;

type Simulation = {
  provider: 'shopify' | 'stripe';
  email: string;
  product: string;
  refund: boolean;
  orderId: string;
  url: string;
};

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

async function shortHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(text)));
  return toHex(digest).slice(0, 12);
}

async function readSimulation(argv: string[]): Promise<Simulation> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        product: { type: 'string' },
        refund: { type: 'boolean', default: false },
        provider: { type: 'string', default: 'shopify' },
        order: { type: 'string' },
        url: { type: 'string' },
      },
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const email = values.email?.trim();
  if (!email || !email.includes('@')) fail('--email is required');
  const product = values.product?.trim() ?? '';
  if (!purchasableProducts.some((p) => p.product === product))
    fail(`--product must be one of ${purchasableProducts.map((p) => p.product).join(', ')}`);
  const provider = values.provider;
  if (provider !== 'shopify' && provider !== 'stripe') fail('--provider must be shopify or stripe');
  const hash = await shortHash(`${email.toLowerCase()} ${product}`);
  const orderId = values.order ?? (provider === 'stripe' ? `pi_sim_${product}_${hash}` : `sim-${product}-${hash}`);
  const base = (
    values.url ??
    process.env.PURCHASE_WEBHOOK_URL ??
    'http://127.0.0.1:54321/functions/v1/purchase-webhook'
  ).replace(/\/+$/, '');
  return { provider, email, product, refund: values.refund ?? false, orderId, url: `${base}/${provider}` };
}

/** The product's price in cents: the ebook's and the bundles' own, from the content modules. */
function priceCents(product: string): number {
  const price = product === 'ebook' ? site.ebook.price : bundles.find((b) => b.id === product)?.price;
  if (price === undefined) throw new Error(`no price for ${product}`);
  return Math.round(price * 100);
}

async function shopify(sim: Simulation): Promise<Request> {
  const ids = purchasableProducts.find((p) => p.product === sim.product)?.shopify;
  const line = { product_id: ids?.productIds[0] ?? null, variant_id: ids?.variantIds[0] ?? null, quantity: 1 };
  const now = new Date().toISOString();
  const cents = priceCents(sim.product);
  const body = sim.refund
    ? {
        id: `sim-refund-${crypto.randomUUID()}`,
        order_id: sim.orderId,
        created_at: now,
        refund_line_items: [{ quantity: 1, line_item: line }],
      }
    : {
        id: sim.orderId,
        email: sim.email,
        currency: 'USD',
        total_price: (cents / 100).toFixed(2),
        processed_at: now,
        line_items: [{ ...line, price: (cents / 100).toFixed(2) }],
      };
  const raw = JSON.stringify(body);
  const secret = process.env.SHOPIFY_WEBHOOK_SECRET || LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET;
  return new Request(sim.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': sim.refund ? 'refunds/create' : 'orders/paid',
      'X-Shopify-Webhook-Id': crypto.randomUUID(),
      'X-Shopify-Shop-Domain': 'simulated.myshopify.com',
      'X-Shopify-Triggered-At': now,
      [SHOPIFY_SIGNATURE_HEADER]: await shopifySignatureHeader(secret, raw),
    },
    body: raw,
  });
}

async function stripe(sim: Simulation): Promise<Request> {
  const priceId = purchasableProducts.find((p) => p.product === sim.product)?.stripe.priceIds[0] ?? null;
  const created = Math.floor(Date.now() / 1000);
  const cents = priceCents(sim.product);
  const object = sim.refund
    ? {
        id: `ch_sim_${created}`,
        object: 'charge',
        payment_intent: sim.orderId,
        amount: cents,
        amount_refunded: cents,
        refunded: true,
        currency: 'usd',
      }
    : {
        id: `cs_sim_${crypto.randomUUID().replaceAll('-', '')}`,
        object: 'checkout.session',
        payment_status: 'paid',
        payment_intent: sim.orderId,
        amount_total: cents,
        currency: 'usd',
        customer_details: { email: sim.email },
        // Real events carry no line items (the function then asks Stripe's API); the simulation
        // sends them expanded, as a session retrieved with expand[]=line_items has them.
        line_items: { object: 'list', data: [{ price: { id: priceId } }] },
      };
  const event = {
    id: `evt_sim_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type: sim.refund ? 'charge.refunded' : 'checkout.session.completed',
    created,
    data: { object },
  };
  const raw = JSON.stringify(event);
  const secret = process.env.STRIPE_WEBHOOK_SECRET || LOCAL_FUNCTION_SECRETS.STRIPE_WEBHOOK_SECRET;
  return new Request(sim.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      [STRIPE_SIGNATURE_HEADER]: await stripeSignatureHeader(secret, created, raw),
    },
    body: raw,
  });
}

const sim = await readSimulation(process.argv.slice(2));
const request = sim.provider === 'shopify' ? await shopify(sim) : await stripe(sim);
console.log(
  `${sim.refund ? 'Refund' : 'Sale'} of ${sim.product} to ${sim.email}, ${sim.provider} order ${sim.orderId}`,
);
console.log(`POST ${sim.url}`);
let response: Response;
try {
  response = await fetch(request);
} catch (err) {
  console.error(
    `Could not reach the function: ${err instanceof Error ? err.message : err}. Is the stand-in running (npm run dev)?`,
  );
  process.exit(1);
}
console.log(`${response.status} ${await response.text()}`);
process.exitCode = response.ok ? 0 : 1;
