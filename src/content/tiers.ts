// The tiers and their order for all TypeScript: the app, the purchase webhook (Deno imports
// this file as it is, hence the relative import with its extension), the stand-in, the scripts
// and the tests. The one definition is the `public.tier` enum in the migrations; `npm run
// db:types` carries it into src/types/database.ts, and this module only names it.
import { Constants, type Enums } from '../types/database.ts';

/** A subscription tier: the `public.tier` enum, as generated from the migrations. */
export type Tier = Enums<'tier'>;

/**
 * Subscription tiers, lowest to highest: the enum's values in the enum's order, which is also
 * the order `public.tier_rank()` ranks them in. Tiers are cumulative: a tier unlocks
 * everything of its own rank and below.
 */
export const tiers = Constants.public.Enums.tier;

export const tierLabels: Record<Tier, string> = {
  ebook: 'Ebook Only',
  foundation: 'Foundation Builder',
  accelerated: 'Accelerated Success',
  complete: 'Complete Transformation',
};

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (tiers as readonly string[]).includes(value);
}

/** ebook 0, foundation 1, accelerated 2, complete 3. */
export function tierRank(tier: Tier): number {
  return tiers.indexOf(tier);
}

/** A card is unlocked when the user's rank is at least the card's; no tier unlocks nothing. */
export function isUnlocked(userTier: Tier | null | undefined, required: Tier): boolean {
  if (!userTier) return false;
  return tierRank(userTier) >= tierRank(required);
}

export function tierLabel(tier: Tier): string {
  return tierLabels[tier];
}
