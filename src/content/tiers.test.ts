import { describe, expect, it } from 'vitest';
import { isTier, isUnlocked, tierLabel, tierRank, tiers } from './tiers';

describe('tiers', () => {
  it('ranks ebook 0, foundation 1, accelerated 2, complete 3', () => {
    expect(tiers.map((tier) => [tier, tierRank(tier)])).toEqual([
      ['ebook', 0],
      ['foundation', 1],
      ['accelerated', 2],
      ['complete', 3],
    ]);
  });

  it('labels each tier as the spec names it', () => {
    expect(tiers.map(tierLabel)).toEqual([
      'Ebook Only',
      'Foundation Builder',
      'Accelerated Success',
      'Complete Transformation',
    ]);
  });

  it('unlocks a card when the user rank is at least the card rank (cumulative)', () => {
    for (const user of tiers) {
      for (const card of tiers) {
        expect(isUnlocked(user, card)).toBe(tierRank(user) >= tierRank(card));
      }
    }
    expect(isUnlocked('foundation', 'ebook')).toBe(true);
    expect(isUnlocked('foundation', 'accelerated')).toBe(false);
  });

  it('unlocks nothing without a tier', () => {
    for (const card of tiers) {
      expect(isUnlocked(null, card)).toBe(false);
      expect(isUnlocked(undefined, card)).toBe(false);
    }
  });

  it('recognises only the four tier names', () => {
    expect(tiers.every(isTier)).toBe(true);
    expect(isTier('premium')).toBe(false);
    expect(isTier('Complete')).toBe(false);
    expect(isTier(3)).toBe(false);
  });
});
