import { Button, type ButtonSize, type ButtonVariant } from './button';

type RetryButtonProps = {
  retry: () => void;
  retrying: boolean;
  /** The idle and busy labels: 'Retry' / 'Retrying...' unless the place says otherwise. */
  labels?: [idle: string, busy: string];
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
};

/**
 * Asks a failed read again. While it runs the button says so and ignores presses, but stays
 * focusable (aria-disabled, not disabled), so keyboard focus is not lost mid-retry.
 */
export function RetryButton({
  retry,
  retrying,
  labels = ['Retry', 'Retrying...'],
  variant = 'outline',
  size = 'sm',
  className,
}: RetryButtonProps) {
  return (
    <Button
      variant={variant}
      size={size}
      className={className}
      aria-disabled={retrying}
      onClick={() => {
        if (!retrying) retry();
      }}
    >
      {retrying ? labels[1] : labels[0]}
    </Button>
  );
}
