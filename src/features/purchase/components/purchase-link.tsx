import type { MouseEvent, ReactNode } from 'react';
import { createMarketplaceSdkLoader } from '../lib/marketplace-sdk';
import { isEmbedded, openPurchaseUrl } from '../lib/purchase-action';
import { ebookOffer } from '@/content/site';

type PurchaseLinkProps = {
  children: ReactNode;
  className?: string;
  /** Defaults to the ebook's storefront page. */
  href?: string;
};

function isModifiedClick(event: MouseEvent) {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

/**
 * A purchase button that is a real link: it works without JavaScript and crawlers see the
 * storefront URL. Only when the page runs inside a marketplace frame (where following the
 * link would load the storefront inside the frame) is the click taken over, to open the
 * storefront outside through the marketplace SDK or, failing that, in a new tab.
 */
export function PurchaseLink({ children, className, href = ebookOffer.storefrontUrl }: PurchaseLinkProps) {
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    if (isModifiedClick(event) || !isEmbedded(window)) return;
    event.preventDefault();
    void openPurchaseUrl(href, { win: window, loadSdk: createMarketplaceSdkLoader(window) });
  }

  return (
    // Marked so that, inside a frame, a click before the app runs waits for it (needs-app.ts); the
    // same mark makes it a checkout link of the ebook for the visit counts (src/lib/count.ts).
    <a href={href} className={className} onClick={handleClick} data-needs-app-in-frame="">
      {children}
    </a>
  );
}
