import { describe, expect, it } from 'vitest';
import { scriptHash } from './early-input.mjs';
import { contentSecurityPolicy } from './security-headers.mjs';
import {
  SPECULATION_RULES_ID,
  SPECULATION_TARGETS,
  speculationRules,
  speculationRulesTag,
} from './speculation-rules.mjs';

describe('speculationRules', () => {
  const rules = JSON.parse(speculationRules());

  it('prefetches and prerenders only the pages the documents link to, which sign nobody in or out', () => {
    expect(SPECULATION_TARGETS).toEqual(['/', '/auth', '/bundles', '/privacy', '/resources']);
    for (const action of ['prefetch', 'prerender']) {
      for (const rule of rules[action]) expect(rule.where.href_matches).toEqual(SPECULATION_TARGETS);
    }
    expect(speculationRules()).not.toMatch(/set-password|confirm|staff|admin/);
  });

  it('fetches and renders the page as soon as its link is seen, not on the tap', () => {
    expect(rules.prefetch.map((rule: { eagerness: string }) => rule.eagerness)).toEqual(['immediate']);
    expect(rules.prerender.map((rule: { eagerness: string }) => rule.eagerness)).toEqual(['immediate']);
  });

  it('travels in the page as inert JSON, and is allowed by its hash once in force', () => {
    const text = speculationRules();
    const tag = speculationRulesTag(text);
    expect(tag).toBe(`<script type="application/json" id="${SPECULATION_RULES_ID}">${text}</script>`);
    const policy = contentSecurityPolicy({ supabaseUrl: 'https://abc.supabase.co', scriptHashes: [scriptHash(text)] });
    expect(policy).toContain(scriptHash(text));
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });
});
