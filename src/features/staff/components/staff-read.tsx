import type { ReactNode } from 'react';
import { RetryButton } from '@/components/ui/retry-button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';

/**
 * Loading, error with a retry, or the data: the same three states every staff read shows
 * inside its section. `what` names the read: "We couldn't load {what}".
 */
export function Read<T>({
  read,
  what,
  children,
}: {
  read: ReadState<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (read.status === 'loading') {
    return <Spinner label={read.retrying ? `Still loading ${what}...` : `Loading ${what}...`} className="py-4" />;
  }
  if (read.status === 'error') {
    return (
      <div role="alert" className="flex flex-col items-start gap-2 py-2">
        <p className="text-navy-900 font-semibold">We couldn&apos;t load {what}.</p>
        <p className="text-navy-800 text-sm">{errorMessage(read.error)}</p>
        <RetryButton retry={read.retry} retrying={read.retrying} />
      </div>
    );
  }
  return children(read.data);
}
