import { createMarketplaceSdkLoader } from '@/features/purchase/lib/marketplace-sdk';
import { openPurchaseUrl } from '@/features/purchase/lib/purchase-action';
import { NEEDS_APP_IN_FRAME } from '@/config/needs-app';

/**
 * Inside a marketplace's frame, following a purchase link would load the storefront inside
 * the frame: the click is taken here and the storefront opened outside, through the
 * marketplace SDK or, failing that, in a new tab (what `PurchaseLink` does in the app). A
 * modified click (a new tab) stays the browser's. `held`: purchase links the page's inline
 * head script held before this ran, opened now.
 */
export function takePurchaseLinks(held: readonly Element[], win: Window = window) {
  const open = (link: HTMLAnchorElement) =>
    void openPurchaseUrl(link.href, { win, loadSdk: createMarketplaceSdkLoader(win) });
  win.document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(NEEDS_APP_IN_FRAME) : null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open(link);
  });
  const last = held.findLast((element) => element.matches(NEEDS_APP_IN_FRAME));
  if (last instanceof HTMLAnchorElement) open(last);
}
