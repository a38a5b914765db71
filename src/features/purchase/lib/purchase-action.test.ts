import { afterEach, describe, expect, it, vi } from 'vitest';
import { decidePurchaseAction, isEmbedded, openPurchaseUrl, type PurchaseWindow } from './purchase-action';

const url = 'https://shop.example.com/products/book';

function fakeWindow({ embedded }: { embedded: boolean }) {
  const self = {};
  return {
    self,
    top: embedded ? {} : self,
    location: { assign: vi.fn<(url: string) => void>() },
    open: vi.fn<PurchaseWindow['open']>(() => ({})),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('isEmbedded / decidePurchaseAction', () => {
  it('is not embedded when the window is its own top', () => {
    const win = fakeWindow({ embedded: false });
    expect(isEmbedded(win)).toBe(false);
    expect(decidePurchaseAction(win)).toBe('navigate');
  });

  it('is embedded when the top window is another window', () => {
    const win = fakeWindow({ embedded: true });
    expect(isEmbedded(win)).toBe(true);
    expect(decidePurchaseAction(win)).toBe('open-externally');
  });

  it('counts a cross-origin parent that throws on access as embedded', () => {
    const win = {
      self: {},
      get top(): unknown {
        throw new DOMException('Blocked a frame with origin', 'SecurityError');
      },
    };
    expect(isEmbedded(win)).toBe(true);
    expect(decidePurchaseAction(win)).toBe('open-externally');
  });
});

describe('openPurchaseUrl', () => {
  it('navigates the current window when not embedded, without touching the SDK', async () => {
    const win = fakeWindow({ embedded: false });
    const loadSdk = vi.fn();

    await expect(openPurchaseUrl(url, { win, loadSdk })).resolves.toBe('navigate');

    expect(win.location.assign).toHaveBeenCalledWith(url);
    expect(loadSdk).not.toHaveBeenCalled();
    expect(win.open).not.toHaveBeenCalled();
  });

  it('asks the marketplace SDK to open the URL externally when embedded', async () => {
    const win = fakeWindow({ embedded: true });
    const openExternalUrl = vi.fn();
    const loadSdk = vi.fn(async () => ({ openExternalUrl }));

    await expect(openPurchaseUrl(url, { win, loadSdk })).resolves.toBe('open-externally');

    expect(openExternalUrl).toHaveBeenCalledWith({ url });
    expect(win.location.assign).not.toHaveBeenCalled();
    expect(win.open).not.toHaveBeenCalled();
  });

  it('logs and opens a new tab when the SDK fails to load', async () => {
    const win = fakeWindow({ embedded: true });
    const failure = new Error('Could not load sdk.js');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});

    await openPurchaseUrl(url, { win, loadSdk: () => Promise.reject(failure) });

    expect(logged).toHaveBeenCalledWith(expect.any(String), failure);
    expect(win.open).toHaveBeenCalledWith(url, '_blank', 'noopener,noreferrer');
    expect(win.location.assign).not.toHaveBeenCalled();
  });

  it('logs and opens a new tab when the SDK call itself fails', async () => {
    const win = fakeWindow({ embedded: true });
    const failure = new Error('refused');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const loadSdk = async () => ({
      openExternalUrl: () => {
        throw failure;
      },
    });

    await openPurchaseUrl(url, { win, loadSdk });

    expect(logged).toHaveBeenCalledWith(expect.any(String), failure);
    expect(win.open).toHaveBeenCalledWith(url, '_blank', 'noopener,noreferrer');
  });

  it('falls back when the SDK call returns a rejected promise', async () => {
    const win = fakeWindow({ embedded: true });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const loadSdk = async () => ({ openExternalUrl: () => Promise.reject(new Error('async refusal')) });

    await openPurchaseUrl(url, { win, loadSdk });

    expect(win.open).toHaveBeenCalledWith(url, '_blank', 'noopener,noreferrer');
  });
});
