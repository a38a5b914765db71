import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '@/lib/cn';

type InputProps = InputHTMLAttributes<HTMLInputElement> & {
  ref?: Ref<HTMLInputElement>;
  /** `compact`: a small input inside a table row or list (no 44 px minimum, tighter padding, small text). */
  density?: 'default' | 'compact';
};

const densities = {
  default: 'min-h-11 px-3 py-2 text-base',
  compact: 'min-h-0 px-2 py-1.5 text-sm',
};

/** Text-like and file inputs in the brand look; read-only inputs are visibly muted. */
export function Input({ className, type = 'text', density = 'default', ...props }: InputProps) {
  return (
    <input
      type={type}
      className={cn(
        'border-navy-600/60 text-navy-900 block w-full rounded-lg border bg-white placeholder:text-slate-600',
        densities[density],
        'focus-visible:border-navy-800 focus-visible:outline-gold-500 focus-visible:outline-2 focus-visible:outline-offset-1',
        'read-only:bg-navy-50 read-only:text-navy-800 disabled:cursor-not-allowed disabled:opacity-70',
        'file:bg-navy-800 file:mr-3 file:rounded-md file:border-0 file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-white',
        className,
      )}
      {...props}
    />
  );
}
