import type { LabelHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** A plain <label>: every input on the site gets one, so it has an accessible name. */
export function Label({ className, htmlFor, ...props }: LabelHTMLAttributes<HTMLLabelElement> & { htmlFor: string }) {
  return <label htmlFor={htmlFor} className={cn('text-navy-900 text-sm font-semibold', className)} {...props} />;
}
