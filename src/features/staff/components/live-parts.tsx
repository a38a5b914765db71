import type { ReactNode, SelectHTMLAttributes } from 'react';
import type { FieldControlProps } from '@/components/ui/form';

/** A native select in the inputs' look: a phone shows its own picker, which a custom one can't match. */
export function NativeSelect({
  children,
  ...props
}: Partial<FieldControlProps> & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  return (
    <select
      {...props}
      className="border-navy-600/60 text-navy-900 min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base disabled:opacity-70"
    >
      {children}
    </select>
  );
}

/** A small spinner inside a busy button, beside its busy words. */
export function ButtonSpinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
    />
  );
}
