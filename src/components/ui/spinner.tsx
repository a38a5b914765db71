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
