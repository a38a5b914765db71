import type { Ref, TextareaHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** A multi-line field in the brand look; its border turns red while it is marked invalid. */
export function Textarea({
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return (
    <textarea
      className={cn(
        'text-navy-900 block w-full rounded-lg border bg-white px-3 py-2 text-base',
        props['aria-invalid'] ? 'border-red-700' : 'border-navy-600/60',
        'focus-visible:border-navy-800 focus-visible:outline-gold-500 focus-visible:outline-2 focus-visible:outline-offset-1',
        'disabled:cursor-not-allowed disabled:opacity-70',
        className,
      )}
      {...props}
    />
  );
}
