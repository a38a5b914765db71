import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadAhead, reloadOnStaleChunk } from './reload-on-stale-chunk';

/** A window the listener acts on: its address, its session storage, and the two ways it leaves. */
function tab(pathname: string) {
  const target = Object.assign(new EventTarget(), {
    location: {
      origin: 'https://site.example',
      pathname,
      search: '',
      hash: '',
      reload: vi.fn(),
      assign: vi.fn(),
    },
    sessionStorage: window.sessionStorage,
  });
  return target;
}

/** What Vite's preload helper does when a chunk will not load: the event, then the error unless prevented. */
function failChunk(target: EventTarget, name: string) {
  const error = new TypeError(`Failed to fetch dynamically imported module: https://site.example/assets/${name}.js`);
  const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: error });
  target.dispatchEvent(event);
  if (!event.defaultPrevented) throw error;
}

function listen(target: ReturnType<typeof tab>, pending: () => string | null) {
  reloadOnStaleChunk({ pendingHref: pending, onSettled: () => {} }, target as unknown as Window);
}

afterEach(() => window.sessionStorage.clear());

describe('a chunk loaded ahead of the visitor', () => {
  it('neither reloads nor rejects when it will not load and the visitor is going nowhere', async () => {
    const target = tab('/');
    listen(target, () => null);
    await expect(loadAhead(async () => failChunk(target, 'auth-AbCdEf12'))).resolves.toBeUndefined();
    expect(target.location.reload).not.toHaveBeenCalled();
    expect(target.location.assign).not.toHaveBeenCalled();
  });

  it('still loads the page the visitor taps their way to when a chunk fails meanwhile', async () => {
    const target = tab('/');
    listen(target, () => '/auth');
    await loadAhead(async () => failChunk(target, 'auth-AbCdEf12'));
    expect(target.location.assign).toHaveBeenCalledWith('/auth');
  });

  it('leaves the recovery as it was once the load ahead is over', async () => {
    const target = tab('/bundles');
    listen(target, () => null);
    await loadAhead(async () => {});
    expect(() => failChunk(target, 'account-menu-AbCdEf12')).not.toThrow();
    expect(target.location.reload).toHaveBeenCalledOnce();
  });
});
