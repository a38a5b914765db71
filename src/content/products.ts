/**
 * The demo catalog's provider ids, as `supabase/seed.sql` seeds them (`REPLACE_ME_<kind>_<tier>`):
 * what `npm run purchase:simulate`, the launch benchmark and the tests send as a sale of each
 * product. The purchase webhook does not read this file: it matches each sale against the
 * catalog in the database (`catalog_provider_ids`), which staff edit on /staff/catalog. See
 * docs/decisions/068-catalog-in-the-database.md.
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
