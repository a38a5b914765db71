import { describe, expect, it } from 'vitest';
import {
  bundles,
  formatFeatureValue,
  formatOriginalPrice,
  formatSavings,
  previousBundle,
  unlockOffer,
  type Bundle,
  type BundleId,
} from './bundles';
import { site } from './site';
import { tierLabel, tiers } from './tiers';

function bundle(id: BundleId): Bundle {
  const found = bundles.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no bundle ${id}`);
  return found;
}

function numericFeatureTotal(b: Bundle): number {
  return b.features.reduce((sum, feature) => sum + (typeof feature.value === 'number' ? feature.value : 0), 0);
}

/** Every string anywhere inside a value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('bundles (spec section 9)', () => {
  it('are the three paid tiers, lowest first, named as the tier labels', () => {
    expect(bundles.map((b) => b.id)).toEqual(['foundation', 'accelerated', 'complete']);
    for (const b of bundles) expect(b.name).toBe(tierLabel(b.id));
  });

  it('have the spec prices, original prices and savings', () => {
    expect(bundles.map((b) => [b.price, formatOriginalPrice(b), formatSavings(b)])).toEqual([
      [49, '$197', 'Save $148'],
      [499, '$1,847', 'Save $1,348'],
      [1495, '$4,500+', 'Save over $3,000'],
    ]);
  });

  it('save exactly original minus price, or at least the stated floor', () => {
    for (const b of bundles) {
      if (b.savingsIsFloor) expect(b.originalPrice - b.price).toBeGreaterThanOrEqual(b.savings);
      else expect(b.savings).toBe(b.originalPrice - b.price);
    }
  });

  it('state a floor for savings exactly when the original price is a floor', () => {
    for (const b of bundles) expect(b.savingsIsFloor).toBe(b.originalPriceIsFloor);
  });

  it('has Foundation Builder features summing to its total value', () => {
    expect(numericFeatureTotal(bundle('foundation'))).toBe(bundle('foundation').originalPrice);
  });

  it('has Accelerated Success worth its features plus Foundation Builder, which it includes', () => {
    const accelerated = bundle('accelerated');
    expect(previousBundle(accelerated)?.id).toBe('foundation');
    expect(numericFeatureTotal(accelerated) + bundle('foundation').originalPrice).toBe(accelerated.originalPrice);
  });

  it('gives Complete Transformation a floor its contents reach ("$4,500+", with a priceless feature)', () => {
    const complete = bundle('complete');
    expect(complete.originalPriceIsFloor).toBe(true);
    expect(complete.features.some((feature) => feature.value === 'Priceless')).toBe(true);
    expect(numericFeatureTotal(complete) + bundle('accelerated').originalPrice).toBeGreaterThanOrEqual(
      complete.originalPrice,
    );
  });

  it('lists each feature with the spec value', () => {
    expect(bundles.map((b) => b.features.map((f) => [f.title, formatFeatureValue(f.value)]))).toEqual([
      [
        ['Worksheets & Checklists', '$47 value'],
        ['Daily Scripture Audio Library', '$97 value'],
        ['Affirmation Cards', '$53 value'],
      ],
      [
        ['Video Masterclass', '$397 value'],
        ['1-on-1 Coaching', '$600 value'],
        ['Group Coaching Circle', '$300 value'],
        ['Community & Accountability', '$147 value'],
        ['Templates & Tools Library', '$206 value'],
      ],
      [
        ['90-Day Publishing Roadmap', '$997 value'],
        ['Extended Coaching', '$1,200 value'],
        ['Manuscript Support', '$800 value'],
        ['Publishing Strategy & Launch Plan', '$500 value'],
        ['VIP Community', 'Priceless'],
        ['Guest Expert Interviews', '$300 value'],
      ],
    ]);
  });

  it('has exactly one featured bundle, the middle one', () => {
    const featured = bundles.filter((b) => b.featured);
    expect(featured).toHaveLength(1);
    expect(bundles.indexOf(featured[0] as Bundle)).toBe(1);
  });

  it('sends every bundle to its own https checkout page', () => {
    const urls = bundles.map((b) => b.purchaseUrl);
    for (const url of urls) {
      expect(new URL(url).protocol).toBe('https:');
      expect(url.startsWith(`${site.urls.checkout}/`)).toBe(true);
    }
    expect(new Set(urls).size).toBe(bundles.length);
  });

  it('writes no dollar amount as text: every price is a number formatted by formatPrice', () => {
    for (const text of strings(bundles)) expect(text).not.toMatch(/\$\s?\d/);
  });
});

describe('unlockOffer', () => {
  it('sells the ebook tier as the ebook itself, on the storefront, at its own price', () => {
    expect(unlockOffer('ebook')).toEqual({
      kind: 'ebook',
      name: 'Yes, You Can! eBook',
      price: site.ebook.price,
      href: site.urls.storefrontProduct,
    });
  });

  it('sells every other tier as the bundle of that tier, at the bundle price', () => {
    for (const tier of tiers.filter((candidate) => candidate !== 'ebook')) {
      const offer = unlockOffer(tier);
      expect(offer).toMatchObject({ kind: 'bundle', name: tierLabel(tier), price: bundle(tier as BundleId).price });
    }
  });
});
