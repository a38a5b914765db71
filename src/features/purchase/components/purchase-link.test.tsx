import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { site } from '@/content/site';
import { PurchaseLink } from './purchase-link';

/**
 * Records whether the app took over the click, then stops jsdom's (unimplemented) real
 * navigation. Runs after React's handler, which listens on the root.
 */
function clickAndSeeIfTakenOver(link: HTMLElement, init: MouseEventInit = {}): boolean {
  let prevented = false;
  const record = (event: Event) => {
    prevented = event.defaultPrevented;
    event.preventDefault();
  };
  window.addEventListener('click', record);
  fireEvent.click(link, init);
  window.removeEventListener('click', record);
  return prevented;
}

const realTop = Object.getOwnPropertyDescriptor(window, 'top');

afterEach(() => {
  vi.restoreAllMocks();
  if (realTop) Object.defineProperty(window, 'top', realTop);
  document.head.querySelectorAll('script').forEach((script) => script.remove());
});

describe('PurchaseLink', () => {
  it('is a real link to the storefront product page, in this window', () => {
    render(<PurchaseLink>Get Your Copy Today</PurchaseLink>);
    const link = screen.getByRole('link', { name: 'Get Your Copy Today' });
    expect(link).toHaveAttribute('href', site.urls.storefrontProduct);
    expect(link).not.toHaveAttribute('target');
  });

  it('leaves the click to the browser when the page is not framed', () => {
    render(<PurchaseLink>Get Your Copy Today</PurchaseLink>);
    expect(clickAndSeeIfTakenOver(screen.getByRole('link'))).toBe(false);
    expect(document.head.querySelector(`script[src="${site.urls.marketplaceSdk}"]`)).toBeNull();
  });

  it('inside a frame, takes the click over, loads the SDK, and opens a new tab when it fails', async () => {
    Object.defineProperty(window, 'top', { configurable: true, get: () => ({}) });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    render(<PurchaseLink>Get Your Copy Today</PurchaseLink>);

    expect(clickAndSeeIfTakenOver(screen.getByRole('link'))).toBe(true);
    const script = document.head.querySelector(`script[src="${site.urls.marketplaceSdk}"]`);
    expect(script).not.toBeNull();

    script?.dispatchEvent(new Event('error'));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith(site.urls.storefrontProduct, '_blank', 'noopener,noreferrer'),
    );
    expect(logged).toHaveBeenCalled();
  });

  it('leaves modified clicks (open in new tab) to the browser even inside a frame', () => {
    Object.defineProperty(window, 'top', { configurable: true, get: () => ({}) });
    render(<PurchaseLink>Get Your Copy Today</PurchaseLink>);
    expect(clickAndSeeIfTakenOver(screen.getByRole('link'), { ctrlKey: true })).toBe(false);
  });
});
