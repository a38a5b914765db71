import { bundleRows } from './catalog-bundles';
import { dollars, ebookOffer, formatPrice, site } from './site';
import type { Tier } from './tiers';

/**
 * The three bundle cards on /bundles (and the showcase on /upgrade). Prices and values are
 * the spec's (section 9) and are display only: the hosted checkout charges. Every amount is
 * a number here and is formatted by `formatPrice`, so no price is written as text twice.
 */
export type BundleId = Exclude<Tier, 'ebook'>;

/** A feature's value: dollars, or 'Priceless' where the spec gives no number. */
export type FeatureValue = number | 'Priceless';

export type BundleFeature = {
  title: string;
  value: FeatureValue;
  description: string;
};

export type Bundle = {
  id: BundleId;
  name: string;
  subtitle: string;
  price: number;
  /** "Was" price; also the bundle's total value (the spec shows the same figure for both). */
  originalPrice: number;
  /** True when the spec gives the original price as a floor ("$4,500+"). */
  originalPriceIsFloor: boolean;
  savings: number;
  /** True when the spec gives savings as a floor ("save over $3,000"). */
  savingsIsFloor: boolean;
  description: string;
  features: readonly BundleFeature[];
  cta: string;
  featured: boolean;
  /** Path on the hosted checkout (`site.urls.checkout`). */
  checkoutPath: string;
  /** Derived: `site.urls.checkout` + `checkoutPath`, so the checkout host is written once. */
  purchaseUrl: string;
};

const bundleData: ReadonlyArray<Omit<Bundle, 'purchaseUrl'>> = [
  {
    id: 'foundation',
    name: 'Foundation Builder',
    subtitle: 'Everything you need to start strong',
    price: 49,
    originalPrice: 197,
    originalPriceIsFloor: false,
    savings: 148,
    savingsIsFloor: false,
    description:
      'Build a daily writing habit rooted in faith. Practical worksheets, scripture to listen to and cards to keep beside you when doubt whispers.',
    features: [
      {
        title: 'Worksheets & Checklists',
        value: 47,
        description: 'Plan your chapters, track your words and keep every writing day on course.',
      },
      {
        title: 'Daily Scripture Audio Library',
        value: 97,
        description: 'Guided sessions of scripture and encouragement to begin each writing day in peace.',
      },
      {
        title: 'Affirmation Cards',
        value: 53,
        description: '15 digital cards with scripture-based affirmations for the days fear gets loud.',
      },
    ],
    cta: 'Start Building Today',
    featured: false,
    checkoutPath: '/b/foundation-builder',
  },
  {
    id: 'accelerated',
    name: 'Accelerated Success',
    subtitle: 'Coaching and community to keep you writing',
    price: 499,
    originalPrice: 1847,
    originalPriceIsFloor: false,
    savings: 1348,
    savingsIsFloor: false,
    description:
      'Go further, faster, with people beside you. Learn the craft, get personal coaching and write alongside a community that will not let you quit. Includes 90-day community access.',
    features: [
      {
        title: 'Video Masterclass',
        value: 397,
        description: 'Step-by-step lessons from blank page to finished manuscript.',
      },
      {
        title: '1-on-1 Coaching',
        value: 600,
        description: 'Two 90-minute private sessions focused on your book and your calling.',
      },
      {
        title: 'Group Coaching Circle',
        value: 300,
        description: 'Three 2-hour live sessions with fellow writers: share pages, get feedback, keep going.',
      },
      {
        title: 'Community & Accountability',
        value: 147,
        description: '90 days of encouragement, check-ins and prayer with writers on the same road.',
      },
      {
        title: 'Templates & Tools Library',
        value: 206,
        description: 'Outlines, scene planners and revision checklists that save you hours.',
      },
    ],
    cta: 'Accelerate My Book',
    featured: true,
    checkoutPath: '/b/accelerated-success',
  },
  {
    id: 'complete',
    name: 'Complete Transformation',
    subtitle: 'A 90-day intensive from first draft to launch',
    price: 1495,
    originalPrice: 4500,
    originalPriceIsFloor: true,
    savings: 3000,
    savingsIsFloor: true,
    description:
      'Our 90-day intensive for writers ready to finish and publish. Extended coaching, hands-on manuscript support and a launch plan for getting your book into readers’ hands. Includes 6 months of VIP support.',
    features: [
      {
        title: '90-Day Publishing Roadmap',
        value: 997,
        description: 'A week-by-week plan from first draft to published book.',
      },
      {
        title: 'Extended Coaching',
        value: 1200,
        description: 'Six 90-minute private sessions to carry you through drafting, revising and publishing.',
      },
      {
        title: 'Manuscript Support',
        value: 800,
        description: 'Personal feedback on your manuscript so you revise with clarity, not guesswork.',
      },
      {
        title: 'Publishing Strategy & Launch Plan',
        value: 500,
        description: 'Choose your publishing path and plan a launch that reaches your readers.',
      },
      {
        title: 'VIP Community',
        value: 'Priceless',
        description: '6 months of VIP community with monthly live Q&A calls.',
      },
      {
        title: 'Guest Expert Interviews',
        value: 300,
        description: 'Conversations with authors, editors and publishers who have walked this road.',
      },
    ],
    cta: 'Begin My Transformation',
    featured: false,
    checkoutPath: '/b/complete-transformation',
  },
];

/**
 * The bundles as the public pages show them: the catalog's name, price, value, savings and
 * checkout link where the build read the catalog (staff change them on /staff/catalog), the
 * spec's figures above otherwise. The copy and features stay here.
 */
export const bundles: readonly Bundle[] = bundleData.map((bundle) => {
  const row = bundleRows.find((candidate) => candidate.tier === bundle.id);
  return {
    ...bundle,
    purchaseUrl: `${site.urls.checkout}${bundle.checkoutPath}`,
    ...(row && {
      name: row.name,
      price: dollars(row.price_cents),
      purchaseUrl: row.checkout_url,
      ...(row.total_value_cents !== null && {
        originalPrice: dollars(row.total_value_cents),
        originalPriceIsFloor: row.total_value_is_floor,
      }),
      ...(row.savings_cents !== null && { savings: dollars(row.savings_cents), savingsIsFloor: row.savings_is_floor }),
    }),
  };
});

/** "$197", or "$4,500+" when the spec gives a floor. */
export function formatOriginalPrice(bundle: Pick<Bundle, 'originalPrice' | 'originalPriceIsFloor'>): string {
  return `${formatPrice(bundle.originalPrice)}${bundle.originalPriceIsFloor ? '+' : ''}`;
}

/** "Save $148", or "Save over $3,000" when the spec gives a floor. */
export function formatSavings(bundle: Pick<Bundle, 'savings' | 'savingsIsFloor'>): string {
  return `Save ${bundle.savingsIsFloor ? 'over ' : ''}${formatPrice(bundle.savings)}`;
}

export function formatFeatureValue(value: FeatureValue): string {
  return value === 'Priceless' ? 'Priceless' : `${formatPrice(value)} value`;
}

/** The bundle one tier below, whose contents this one also includes (tiers are cumulative). */
export function previousBundle(bundle: Pick<Bundle, 'id'>): Bundle | undefined {
  const index = bundles.findIndex((candidate) => candidate.id === bundle.id);
  return index > 0 ? bundles[index - 1] : undefined;
}

/** What a visitor buys to unlock a tier: the ebook itself, or the bundle of that tier. */
export type UnlockOffer =
  | { kind: 'ebook'; name: string; price: number; href: string }
  | { kind: 'bundle'; name: string; price: number; bundle: Bundle };

/**
 * The cheapest purchase that unlocks `tier` (tiers are cumulative: the bundle of that very
 * tier). The ebook is sold on the storefront, not on /bundles. Names and prices come from
 * `site` and `bundles`, so a locked card never carries a price of its own.
 */
export function unlockOffer(tier: Tier): UnlockOffer {
  if (tier === 'ebook') {
    return {
      kind: 'ebook',
      name: `${site.productName} eBook`,
      price: ebookOffer.price,
      href: ebookOffer.storefrontUrl,
    };
  }
  const bundle = bundles.find((candidate) => candidate.id === tier);
  if (!bundle) throw new Error(`No bundle sells the ${tier} tier`);
  return { kind: 'bundle', name: bundle.name, price: bundle.price, bundle };
}
