import { describe, expect, it } from 'vitest';
import { bundles } from './bundles';
import { isPlaceholderId, purchasableProducts } from './products';

describe('purchasable products (the webhook’s product → tier map)', () => {
  it('sells the ebook and every bundle, each granting its own tier', () => {
    expect(purchasableProducts.map((p) => [p.product, p.tier])).toEqual([
      ['ebook', 'ebook'],
      ...bundles.map((b) => [b.id, b.id]),
    ]);
  });

  it('never lists one id for two products', () => {
    const ids = purchasableProducts.flatMap((p) => [
      ...p.shopify.productIds.map((id) => `shopify product ${id}`),
      ...p.shopify.variantIds.map((id) => `shopify variant ${id}`),
      ...p.stripe.priceIds.map((id) => `stripe price ${id}`),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks placeholders so the owner can find them', () => {
    expect(isPlaceholderId('REPLACE_ME_stripe_price_ebook')).toBe(true);
    expect(isPlaceholderId('price_1PqRsT')).toBe(false);
  });
});
