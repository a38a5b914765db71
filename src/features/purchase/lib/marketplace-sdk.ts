import { site } from '@/content/site';
import type { LoadMarketplaceSdk, MarketplaceSdk } from './purchase-action';

type ScriptDocument = Pick<Document, 'createElement' | 'head'>;

const pending = new Map<string, Promise<void>>();

/**
 * Adds `<script src>` once per src and resolves when it has run. A failed or stalled load
 * is forgotten, so the next click tries again instead of reusing a dead promise.
 *
 * The timeout stays under the browser's ~5 s user-activation window, so the new-tab
 * fallback that follows a failure is still allowed to open.
 */
export const SDK_TIMEOUT_MS = 3000;

export function loadScriptOnce(src: string, doc: ScriptDocument, timeoutMs = SDK_TIMEOUT_MS): Promise<void> {
  const existing = pending.get(src);
  if (existing) return existing;
  const loading = new Promise<void>((resolve, reject) => {
    const script = doc.createElement('script');
    const timer = setTimeout(() => fail(new Error(`Timed out loading ${src}`)), timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      pending.delete(src);
      script.remove();
      reject(error);
    }
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => {
      clearTimeout(timer);
      resolve();
    });
    script.addEventListener('error', () => fail(new Error(`Could not load ${src}`)));
    doc.head.append(script);
  });
  pending.set(src, loading);
  return loading;
}

/** What the marketplace script leaves on `window` (Shopify App Bridge's CDN build: `shopify`). */
type SdkWindow = { shopify?: unknown; open: (url: string, target: string) => unknown };

/**
 * The one place that knows the marketplace's API. App Bridge opens a URL outside the
 * embedding admin when the app calls `open(url, '_top')` once the `shopify` global exists.
 * Swap this adapter (and `site.urls.marketplaceSdk`) if the marketplace changes.
 */
export function adaptMarketplaceSdk(win: SdkWindow): MarketplaceSdk {
  if (!win.shopify) throw new Error('The marketplace SDK loaded but did not register itself.');
  return {
    openExternalUrl: ({ url }) => {
      const opened = win.open(url, '_top');
      if (opened === null) throw new Error('The marketplace refused to open the URL.');
    },
  };
}

/** The real loader, for the browser: only ever called from a click handler. */
export function createMarketplaceSdkLoader(
  win: SdkWindow & { document: ScriptDocument },
  src: string = site.urls.marketplaceSdk,
): LoadMarketplaceSdk {
  return async () => {
    await loadScriptOnce(src, win.document);
    return adaptMarketplaceSdk(win);
  };
}
