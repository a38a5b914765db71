import { describe, expect, it } from 'vitest';
import { displayNameOrPlaceholder, getInitials } from './identity';

describe('getInitials', () => {
  it.each([
    ['Grace Hopper', 'g@example.com', 'GH'],
    ['grace', 'g@example.com', 'G'],
    ['  mary   ann  evans ', 'm@example.com', 'MA'],
    ['Émile Zola', null, 'ÉZ'],
    [null, 'writer@example.com', 'W'],
    ['   ', 'writer@example.com', 'W'],
    [null, null, 'U'],
    ['', '', 'U'],
  ])('%s / %s -> %s', (name, email, initials) => {
    expect(getInitials(name, email)).toBe(initials);
  });
});

describe('displayNameOrPlaceholder', () => {
  it('shows the name, or No name set when empty', () => {
    expect(displayNameOrPlaceholder('Grace')).toBe('Grace');
    expect(displayNameOrPlaceholder(' Grace ')).toBe('Grace');
    expect(displayNameOrPlaceholder('')).toBe('No name set');
    expect(displayNameOrPlaceholder('  ')).toBe('No name set');
    expect(displayNameOrPlaceholder(null)).toBe('No name set');
  });
});
