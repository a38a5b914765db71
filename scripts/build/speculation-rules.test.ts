import { describe, expect, it } from 'vitest';
import { scriptHash } from './early-input.mjs';
import { contentSecurityPolicy } from './security-headers.mjs';
import {
  SPECULATION_STAGES,
  SPECULATION_TARGETS,
  speculationRulesId,
  speculationRules,
  speculationRulesTag,
} from './speculation-rules.mjs';

describe('speculationRules', () => {
  const [first, later] = speculationRules().map((text) => JSON.parse(text));
  const matches = (rules: { where: { href_matches: string[] } }[] = []) => rules.map((rule) => rule.where.href_matches);

  it('prefetches and prerenders only the pages the documents link to, which sign nobody in or out', () => {
    expect(SPECULATION_TARGETS).toEqual(['/', '/auth', '/bundles', '/privacy', '/resources']);
    expect(speculationRules().join('')).not.toMatch(/set-password|confirm|staff|admin/);
  });

  it('fetches every target first and renders the top links’ pages, then renders the footer’s', () => {
    expect(SPECULATION_STAGES).toEqual([
      ['/', '/auth', '/bundles'],
      ['/privacy', '/resources'],
    ]);
    expect(matches(first.prefetch)).toEqual([SPECULATION_TARGETS]);
    expect(matches(first.prerender)).toEqual([['/', '/auth', '/bundles']]);
    expect(later.prefetch).toBeUndefined();
    expect(matches(later.prerender)).toEqual([['/privacy', '/resources']]);
  });

  it('fetches and renders the page as soon as its stage is in force, not on the tap', () => {
    for (const rule of [...first.prefetch, ...first.prerender, ...later.prerender]) {
      expect(rule.eagerness).toBe('immediate');
    }
  });

  it('travels in the page as inert JSON, one element per stage, each allowed by its hash once in force', () => {
    const texts = speculationRules();
    expect(speculationRulesTag(texts)).toBe(
      texts
        .map((text, stage) => `<script type="application/json" id="${speculationRulesId(stage)}">${text}</script>`)
        .join(''),
    );
    const policy = contentSecurityPolicy({
      supabaseUrl: 'https://abc.supabase.co',
      scriptHashes: texts.map(scriptHash),
    });
    for (const text of texts) expect(policy).toContain(scriptHash(text));
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });
});
