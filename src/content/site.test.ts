import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPrice, site } from './site';

// Vitest runs from the project's root.
const publicDir = path.resolve('public');

describe('site content', () => {
  it('formats whole dollars without cents and with thousands separators, others with cents', () => {
    expect(formatPrice(24.95)).toBe('$24.95');
    expect(formatPrice(497)).toBe('$497');
    expect(formatPrice(1495)).toBe('$1,495');
    expect(formatPrice(4500)).toBe('$4,500');
    expect(formatPrice(1234567)).toBe('$1,234,567');
    expect(formatPrice(100000)).toBe('$100,000');
    expect(formatPrice(24.5)).toBe('$24.50');
  });

  it('has the spec ebook price and reference price', () => {
    expect(formatPrice(site.ebook.price)).toBe('$24.95');
    expect(formatPrice(site.ebook.originalPrice)).toBe('$497');
  });

  it('uses https for every outside URL', () => {
    for (const [name, url] of Object.entries(site.urls)) {
      expect(new URL(url).protocol, name).toBe('https:');
    }
  });

  it('has a plausible contact address and a cover path served from public/', () => {
    expect(site.contactEmail).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/);
    expect(site.ebook.cover.src).toMatch(/^\/[\w-]+\.webp$/);
    expect(existsSync(path.join(publicDir, site.ebook.cover.src))).toBe(true);
  });
});
