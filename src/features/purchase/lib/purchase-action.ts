/**
 * How a purchase button leaves the site (spec section 7). Pure: the window and the SDK
 * loader are parameters, so the decision is testable without a browser or module mocks.
 */

/** What the marketplace SDK must offer: open a URL outside the frame it runs in. */
export type MarketplaceSdk = {
  openExternalUrl: (options: { url: string }) => unknown;
};

export type LoadMarketplaceSdk = () => Promise<MarketplaceSdk>;

/** The parts of `window` the action touches. */
export type PurchaseWindow = {
  self: unknown;
  top: unknown;
  location: { assign: (url: string) => void };
  open: (url: string, target: string, features: string) => unknown;
};

export type PurchaseAction = 'navigate' | 'open-externally';

/**
 * True inside a frame. Reading `top` of a cross-origin parent can throw; if it does we are
 * certainly framed by someone else, so that counts as embedded.
 */
export function isEmbedded(win: Pick<PurchaseWindow, 'self' | 'top'>): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
}

export function decidePurchaseAction(win: Pick<PurchaseWindow, 'self' | 'top'>): PurchaseAction {
  return isEmbedded(win) ? 'open-externally' : 'navigate';
}

/** Opens in a new tab without giving the storefront a handle on this page. */
export function openInNewTab(win: Pick<PurchaseWindow, 'open'>, url: string): void {
  win.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * Not embedded: navigate this window. Embedded (a marketplace frame, where navigating
 * would load the storefront inside the frame): ask the marketplace SDK to open the URL
 * outside; if the SDK cannot load or the call fails, log why and open a new tab instead.
 */
export async function openPurchaseUrl(
  url: string,
  { win, loadSdk }: { win: PurchaseWindow; loadSdk: LoadMarketplaceSdk },
): Promise<PurchaseAction> {
  const action = decidePurchaseAction(win);
  if (action === 'navigate') {
    win.location.assign(url);
    return action;
  }
  try {
    const sdk = await loadSdk();
    await sdk.openExternalUrl({ url });
  } catch (error) {
    console.error('Could not open the purchase page through the marketplace SDK; opening a new tab instead.', error);
    openInNewTab(win, url);
  }
  return action;
}
