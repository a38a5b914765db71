/**
 * What the checkouts sell and which tier each sale grants: the one place the purchase webhook
 * (`supabase/functions/purchase-webhook`) learns that a Shopify product or a Stripe price is,
 * say, the Foundation Builder bundle. The bundles themselves (names, prices, copy) are in
 * `bundles.ts`; the ebook is the `ebook` tier.
 *
 * OWNER: every id below that starts with `REPLACE_ME` is a placeholder. Put your own in before
 * launch: Shopify product ids (Products → open the product → the number at the end of the URL)
 * or variant ids, and Stripe price ids (`price_…`, on the product's page in the Stripe
 * dashboard). A sale of an id that is listed nowhere is acknowledged, logged and grants nothing.
 *
 * The Edge Function (Deno) imports this file as it is, and Deno wants every import written
 * with its extension: hence `./tiers.ts`, and nothing here that imports through `@/`.
 */
import type { Tier } from './tiers.ts';

export type PurchasableProduct = {
  /** Recorded as `purchases.product`: the bundle id, or `ebook`. */
  product: Tier;
  tier: Tier;
  /** A Shopify line item matches when its product id or its variant id is listed. */
  shopify: { productIds: readonly string[]; variantIds: readonly string[] };
  /** A Stripe Checkout line item matches when its price id is listed. */
  stripe: { priceIds: readonly string[] };
};

export const purchasableProducts: readonly PurchasableProduct[] = [
  {
    product: 'ebook',
    tier: 'ebook',
    shopify: { productIds: ['REPLACE_ME_shopify_product_ebook'], variantIds: [] },
    stripe: { priceIds: ['REPLACE_ME_stripe_price_ebook'] },
  },
  {
    product: 'foundation',
    tier: 'foundation',
    shopify: { productIds: ['REPLACE_ME_shopify_product_foundation'], variantIds: [] },
    stripe: { priceIds: ['REPLACE_ME_stripe_price_foundation'] },
  },
  {
    product: 'accelerated',
    tier: 'accelerated',
    shopify: { productIds: ['REPLACE_ME_shopify_product_accelerated'], variantIds: [] },
    stripe: { priceIds: ['REPLACE_ME_stripe_price_accelerated'] },
  },
  {
    product: 'complete',
    tier: 'complete',
    shopify: { productIds: ['REPLACE_ME_shopify_product_complete'], variantIds: [] },
    stripe: { priceIds: ['REPLACE_ME_stripe_price_complete'] },
  },
];

/** True while an id is still the placeholder shipped in this file. */
export function isPlaceholderId(id: string): boolean {
  return id.startsWith('REPLACE_ME');
}
