import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createMemoryRouter, Link, Outlet, RouterProvider, type RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { documentTitle, homeTitle, type RouteHandle } from './head';
import { PageTitle } from './page-title';
import { routes } from './router';

describe('documentTitle', () => {
  it('names the deepest route that has a title, with the product name', () => {
    expect(documentTitle([undefined, { title: 'Outer' }, null, { title: 'Compare Our Bundles' }, {}])).toBe(
      'Compare Our Bundles | Yes, You Can!',
    );
  });

  it('falls back to the landing page title, which index.html also carries for the first paint', () => {
    expect(documentTitle([undefined, {}])).toBe(homeTitle);
    const html = readFileSync(resolve(__dirname, '../../index.html'), 'utf8');
    expect(html).toContain(`<title>${homeTitle}</title>`);
  });
});

describe('the app routes', () => {
  const pages = routes[0]?.children?.[0]?.children ?? [];

  it('give every page but the landing page its own title', () => {
    const titles = pages.map((route) => ({
      path: route.path,
      title: (route.handle as RouteHandle | undefined)?.title,
    }));
    expect(titles.filter((page) => page.path !== paths.home && !page.title)).toEqual([]);
    expect(new Set(titles.map((page) => page.title)).size).toBe(titles.length);
  });
});

describe('PageTitle', () => {
  function renderAt(path: string) {
    const tree: RouteObject[] = [
      {
        element: (
          <>
            <PageTitle />
            <Outlet />
          </>
        ),
        children: [
          { path: '/', element: <Link to="/bundles">Compare</Link> },
          {
            path: '/bundles',
            handle: { title: 'Compare Our Bundles' } satisfies RouteHandle,
            element: <Link to="/">Back to Home</Link>,
          },
        ],
      },
    ];
    const router = createMemoryRouter(tree, { initialEntries: [path] });
    return { router, ...render(<RouterProvider router={router} />) };
  }

  it('sets the tab title but announces nothing on the first page of a visit', () => {
    renderAt('/bundles');
    expect(document.title).toBe('Compare Our Bundles | Yes, You Can!');
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('retitles the tab and announces the new page after each client-side navigation', async () => {
    const user = userEvent.setup();
    renderAt('/');
    expect(document.title).toBe(homeTitle);

    await user.click(screen.getByRole('link', { name: 'Compare' }));
    expect(document.title).toBe('Compare Our Bundles | Yes, You Can!');
    expect(screen.getByRole('status')).toHaveTextContent('Compare Our Bundles | Yes, You Can!');

    await user.click(screen.getByRole('link', { name: 'Back to Home' }));
    expect(document.title).toBe(homeTitle);
    expect(screen.getByRole('status')).toHaveTextContent(homeTitle);
  });

  it('announces the browser Back button too, also back to the first page of the visit', async () => {
    const user = userEvent.setup();
    const { router } = renderAt('/');
    await user.click(screen.getByRole('link', { name: 'Compare' }));
    expect(screen.getByRole('status')).toHaveTextContent('Compare Our Bundles | Yes, You Can!');

    await act(() => router.navigate(-1));
    expect(document.title).toBe(homeTitle);
    expect(screen.getByRole('status')).toHaveTextContent(homeTitle);
  });
});
