import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { preloadLinkedRoutes } from './preload-linked-routes';

const origin = 'https://site.example';

/** Routes whose modules note when they are loaded. */
function routesNoting(loaded: string[], failing: string[] = []): RouteObject[] {
  const lazy = (name: string) => async () => {
    loaded.push(name);
    if (failing.includes(name)) throw new TypeError(`Failed to fetch dynamically imported module: ${name}`);
    return {};
  };
  return [
    {
      children: [
        { path: '/', lazy: lazy('home') },
        { path: '/auth', lazy: lazy('auth') },
        { path: '/bundles', lazy: lazy('bundles') },
        { path: '/resources', lazy: lazy('resources') },
        { path: '/privacy', lazy: lazy('privacy') },
      ],
    },
  ];
}

function page(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
}

describe('preloadLinkedRoutes', () => {
  it("loads the code of the next pages the page links to, once each, and no other page's", async () => {
    const loaded: string[] = [];
    const root = page(
      `<a href="/auth">Sign In</a><a href="/bundles">Compare</a><a href="/auth?next=%2Fresources">Sign in</a>
       <a href="/resources">Files</a><a href="/privacy">Privacy</a><a href="https://elsewhere.example/bundles">Shop</a>`,
    );
    await preloadLinkedRoutes(routesNoting(loaded), root, origin);
    expect(loaded.sort()).toEqual(['auth', 'bundles']);
  });

  it('leaves a module that will not load to the router, and loads the others', async () => {
    const loaded: string[] = [];
    const root = page('<a href="/auth">Sign In</a><a href="/">Home</a>');
    await expect(preloadLinkedRoutes(routesNoting(loaded, ['auth']), root, origin)).resolves.toBeUndefined();
    expect(loaded.sort()).toEqual(['auth', 'home']);
  });

  it('loads nothing on a page without such links', async () => {
    const loaded: string[] = [];
    await preloadLinkedRoutes(routesNoting(loaded), page('<p>No links</p>'), origin);
    expect(loaded).toEqual([]);
  });
});
