import { cn } from '@/lib/cn';

/**
 * A determinate progress bar (no Radix package for it in the stack): role=progressbar with
 * aria-valuenow, so screen readers and tests read the same number the bar shows.
 */
export function Progress({ value, label, className }: { value: number; label: string; className?: string }) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      aria-valuetext={`${clamped}%`}
      className={cn('bg-navy-100 h-3 w-full overflow-hidden rounded-full', className)}
    >
      <div className="bg-gold-500 h-full rounded-full transition-[width]" style={{ width: `${clamped}%` }} />
    </div>
  );
}
