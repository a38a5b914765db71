import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Input } from '@/components/ui/input';
import { cn } from './cn';

describe('cn', () => {
  it('skips empty values', () => {
    expect(cn('a', false, null, undefined, '', 'b')).toBe('a b');
  });

  it('lets a later Tailwind class win over an earlier one of the same kind', () => {
    expect(cn('min-h-11 px-3 py-2 text-base', 'min-h-0 px-2 py-1.5 text-sm')).toBe('min-h-0 px-2 py-1.5 text-sm');
  });

  it('keeps a custom colour and a font size apart (text-navy-900 is a colour, text-sm a size)', () => {
    expect(cn('text-navy-900 text-base', 'text-sm')).toBe('text-navy-900 text-sm');
    expect(cn('bg-white text-navy-900', 'bg-navy-50')).toBe('text-navy-900 bg-navy-50');
  });
});

describe('Input className override', () => {
  it("replaces the component's own padding, height and size instead of adding to them", () => {
    render(<Input aria-label="Name" className="min-h-0 px-2 py-1.5 text-sm" />);
    const classes = screen.getByRole('textbox', { name: 'Name' }).className.split(/\s+/);
    expect(classes).toEqual(expect.arrayContaining(['min-h-0', 'px-2', 'py-1.5', 'text-sm']));
    for (const overridden of ['min-h-11', 'px-3', 'py-2', 'text-base']) expect(classes).not.toContain(overridden);
  });
});
