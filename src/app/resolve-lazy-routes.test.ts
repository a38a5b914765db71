import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { resolveLazyRoutes } from './resolve-lazy-routes';

function Page() {
  return null;
}

describe('resolveLazyRoutes', () => {
  it('puts the matched lazy module on its route and leaves the others lazy', async () => {
    const other = async () => ({ Component: Page });
    const routes: RouteObject[] = [
      {
        path: '/',
        children: [
          { path: 'bundles', handle: { title: 'Bundles' }, lazy: async () => ({ Component: Page, extra: 1 }) },
          { path: 'auth', lazy: other },
        ],
      },
    ];
    await resolveLazyRoutes(routes, { pathname: '/bundles' });
    const [bundles, auth] = routes[0]?.children ?? [];
    expect(bundles?.Component).toBe(Page);
    expect(bundles?.lazy).toBeUndefined();
    expect(bundles?.handle).toEqual({ title: 'Bundles' });
    expect(bundles).not.toHaveProperty('extra');
    expect(auth?.lazy).toBe(other);
  });

  it('rejects when a module will not load, and the route then fails the same way without asking again', async () => {
    let asked = 0;
    const failure = new TypeError('Failed to fetch dynamically imported module: /assets/auth.js');
    const routes: RouteObject[] = [
      {
        path: '/auth',
        lazy: () => {
          asked += 1;
          return Promise.reject(failure);
        },
      },
    ];
    await expect(resolveLazyRoutes(routes, { pathname: '/auth' })).rejects.toBe(failure);
    const lazy = routes[0]?.lazy;
    expect(typeof lazy).toBe('function');
    await expect((lazy as () => Promise<unknown>)()).rejects.toBe(failure);
    expect(asked).toBe(1);
  });
});
