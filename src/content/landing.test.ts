import { describe, expect, it } from 'vitest';
import { landing } from './landing';

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('landing copy', () => {
  it('has the spec texts word for word', () => {
    expect(landing.header.purchase).toBe('Purchase Your Yes, You Can! ebook Today!');
    expect(landing.hero.benefits).toEqual([
      'Finish Your Book in 90 Days',
      'Silence Your Inner Critic',
      'Overcome Perfectionism',
    ]);
    expect(landing.price.notes).toEqual(['Instant Digital Access', 'No Shipping', 'Start Reading in 2 Minutes']);
    expect(landing.footer.resources).toBe('Subscriber Resources');
  });

  it('writes no dollar amount as text: prices come from site.ts', () => {
    for (const text of strings(landing)) expect(text).not.toMatch(/\$\s?\d/);
  });

  it('has no placeholder text', () => {
    for (const text of strings(landing)) expect(text).not.toMatch(/lorem|ipsum|TODO|TBD/i);
  });

  it('quotes scripture with its reference', () => {
    expect(landing.closing.scripture.text.length).toBeGreaterThan(10);
    expect(landing.closing.scripture.reference).toMatch(/^[1-3]?\s?[A-Z][a-z]+ \d+:\d+/);
  });
});
