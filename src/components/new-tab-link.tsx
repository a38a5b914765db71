import type { ReactNode } from 'react';

/** An outside link that opens a new tab, and says so to screen-reader users. */
type NewTabLinkProps = {
  href: string;
  className?: string;
  children: ReactNode;
  /** Marks a checkout link with the tier it sells: its clicks are counted (src/lib/count.ts). */
  checkout?: string;
};

export function NewTabLink({ href, className, children, checkout }: NewTabLinkProps) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className} data-checkout={checkout}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
