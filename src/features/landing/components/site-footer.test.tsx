import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteFooter } from './site-footer';

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

function footer() {
  return (
    <MemoryRouter>
      <SiteFooter />
    </MemoryRouter>
  );
}

describe('SiteFooter on a prerendered page', () => {
  it('hydrates a page built last year without an error, and shows this year', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-31T12:00:00Z'));
    // renderToString has no window to look at: give it none, as the build has none.
    vi.stubGlobal('window', undefined);
    const html = renderToString(footer());
    vi.unstubAllGlobals();
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    expect(container).toHaveTextContent('© 2026 Yes, You Can! All rights reserved.');

    vi.setSystemTime(new Date('2027-01-01T12:00:00Z'));
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(container, footer(), { onRecoverableError: recoverable });
    });

    expect(recoverable).not.toHaveBeenCalled();
    expect(container).toHaveTextContent('© 2027 Yes, You Can! All rights reserved.');
  });
});
