import { afterEach, describe, expect, it, vi } from 'vitest';
import { adaptMarketplaceSdk, createMarketplaceSdkLoader, loadScriptOnce } from './marketplace-sdk';

let counter = 0;
/** A unique src per test: the loader remembers scripts by src. */
function uniqueSrc() {
  counter += 1;
  return `https://cdn.example.com/sdk-${counter}.js`;
}

function scriptFor(src: string) {
  const script = document.head.querySelector<HTMLScriptElement>(`script[src="${src}"]`);
  if (!script) throw new Error(`no script for ${src}`);
  return script;
}

afterEach(() => {
  document.head.innerHTML = '';
  vi.useRealTimers();
});

describe('loadScriptOnce', () => {
  it('adds one async script per src and resolves when it loads', async () => {
    const src = uniqueSrc();
    const first = loadScriptOnce(src, document);
    const second = loadScriptOnce(src, document);

    expect(second).toBe(first);
    expect(document.head.querySelectorAll(`script[src="${src}"]`)).toHaveLength(1);
    expect(scriptFor(src).async).toBe(true);

    scriptFor(src).dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
  });

  it('rejects on error, removes the script and lets the next call retry', async () => {
    const src = uniqueSrc();
    const first = loadScriptOnce(src, document);
    scriptFor(src).dispatchEvent(new Event('error'));

    await expect(first).rejects.toThrow(`Could not load ${src}`);
    expect(document.head.querySelector(`script[src="${src}"]`)).toBeNull();

    const retry = loadScriptOnce(src, document);
    expect(retry).not.toBe(first);
    scriptFor(src).dispatchEvent(new Event('load'));
    await expect(retry).resolves.toBeUndefined();
  });

  it('rejects when the script never answers', async () => {
    vi.useFakeTimers();
    const src = uniqueSrc();
    const loading = loadScriptOnce(src, document, 1000);
    vi.advanceTimersByTime(1000);
    await expect(loading).rejects.toThrow(`Timed out loading ${src}`);
  });
});

describe('adaptMarketplaceSdk', () => {
  it('refuses when the script did not register its global', () => {
    expect(() => adaptMarketplaceSdk({ open: vi.fn() })).toThrow('did not register');
  });

  it('opens the URL in the top window through the marketplace', () => {
    const open = vi.fn(() => ({}));
    adaptMarketplaceSdk({ shopify: {}, open }).openExternalUrl({ url: 'https://shop.example.com' });
    expect(open).toHaveBeenCalledWith('https://shop.example.com', '_top');
  });

  it('fails when the top-window open is blocked', () => {
    const sdk = adaptMarketplaceSdk({ shopify: {}, open: () => null });
    expect(() => sdk.openExternalUrl({ url: 'https://shop.example.com' })).toThrow('refused');
  });
});

describe('createMarketplaceSdkLoader', () => {
  it('loads the script, then adapts the global it left behind', async () => {
    const src = uniqueSrc();
    const win = { document, open: vi.fn(() => ({})), shopify: undefined as unknown };
    const loading = createMarketplaceSdkLoader(win, src)();

    win.shopify = {};
    scriptFor(src).dispatchEvent(new Event('load'));
    const sdk = await loading;
    sdk.openExternalUrl({ url: 'https://shop.example.com' });

    expect(win.open).toHaveBeenCalledWith('https://shop.example.com', '_top');
  });
});
