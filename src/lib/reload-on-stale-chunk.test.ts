import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadOnStaleChunk } from './reload-on-stale-chunk';

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

describe('a chunk that will not load', () => {
  it('loads the page the visitor is going to, once: failing again there, the error shows', () => {
    const target = tab('/resources');
    listen(target, () => '/staff');
    expect(() => failChunk(target, 'staff-AbCdEf12')).not.toThrow();
    expect(target.location.assign).toHaveBeenCalledWith('/staff');
    expect(() => failChunk(target, 'staff-AbCdEf12')).toThrow(/dynamically imported module/);
    expect(target.location.assign).toHaveBeenCalledOnce();
  });

  it('reloads where the visitor stands when the router is going nowhere (Back/Forward moved the bar)', () => {
    const target = tab('/bundles');
    listen(target, () => null);
    expect(() => failChunk(target, 'account-menu-AbCdEf12')).not.toThrow();
    expect(target.location.reload).toHaveBeenCalledOnce();
  });
});
