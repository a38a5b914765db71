import { cn } from '@/lib/cn';

/** A spinner with a visible or screen-reader label; announced politely. */
export function Spinner({
  label,
  className,
  showLabel = true,
}: {
  label: string;
  className?: string;
  showLabel?: boolean;
}) {
  return (
    <div role="status" aria-live="polite" className={cn('flex flex-col items-center gap-3', className)}>
      <span
        aria-hidden="true"
        className="border-navy-100 border-t-gold-500 inline-block size-8 animate-spin rounded-full border-4"
      />
      <span className={showLabel ? 'text-navy-800' : 'sr-only'}>{label}</span>
    </div>
  );
}

/**
 * A page that only waits: the spinner centred in a full-height `main`. `className` styles the
 * page (its background), `spinnerClassName` the spinner (a card on a dark page).
 */
export function FullPageSpinner({
  label,
  className,
  spinnerClassName,
}: {
  label: string;
  className?: string;
  spinnerClassName?: string;
}) {
  return (
    <main className={cn('flex min-h-screen items-center justify-center p-6', className)}>
      <Spinner label={label} className={spinnerClassName} />
    </main>
  );
}
