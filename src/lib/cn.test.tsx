import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Input } from '@/components/ui/input';
import { cn } from './cn';

describe('cn', () => {
  it('joins classes as clsx does: skips empty values, reads arrays and objects', () => {
    expect(cn('a', false, null, undefined, '', 'b')).toBe('a b');
    expect(cn(['px-3', ['py-2']], { 'text-sm': true, 'font-bold': false })).toBe('px-3 py-2 text-sm');
  });

  it('keeps every class in order, without merging, when none conflict', () => {
    expect(cn('text-navy-900 text-base', 'bg-white')).toBe('text-navy-900 text-base bg-white');
  });

  it('throws in tests on two classes of the same kind, naming both', () => {
    expect(() => cn('min-h-11 px-3', 'px-2')).toThrow(/"px-3" and "px-2"/);
    expect(() => cn('mt-6 flex', 'mt-1')).toThrow(/"mt-6" and "mt-1"/);
    expect(() => cn('text-navy-900', 'text-white')).toThrow(/"text-navy-900" and "text-white"/);
  });

  it('does not take a custom colour and a font size for a conflict (text-navy-900, text-sm)', () => {
    expect(cn('text-navy-900', 'text-sm')).toBe('text-navy-900 text-sm');
  });
});

describe('Input density', () => {
  it('compact sets the small padding, height and size instead of adding to the default ones', () => {
    render(<Input aria-label="Name" density="compact" />);
    const classes = screen.getByRole('textbox', { name: 'Name' }).className.split(/\s+/);
    expect(classes).toEqual(expect.arrayContaining(['min-h-0', 'px-2', 'py-1.5', 'text-sm']));
    for (const overridden of ['min-h-11', 'px-3', 'py-2', 'text-base']) expect(classes).not.toContain(overridden);
  });
});
