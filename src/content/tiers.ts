import type { Enums } from '@/types/database';

/** A subscription tier: the `public.tier` enum, as generated from the migrations. */
export type Tier = Enums<'tier'>;

/**
 * Subscription tiers, lowest to highest. Tiers are cumulative: a tier unlocks everything
 * of its own rank and below. The same order lives in SQL as the `public.tier` enum and
 * `public.tier_rank()`; the content and database tests check they agree.
 */
export const tiers = ['ebook', 'foundation', 'accelerated', 'complete'] as const satisfies readonly Tier[];

/** Compiles only while `tiers` lists every tier of the enum (a new enum value breaks the build). */
type MissingTiers = Exclude<Tier, (typeof tiers)[number]>;
const everyTierListed: [MissingTiers] extends [never] ? true : never = true;
void everyTierListed;

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
