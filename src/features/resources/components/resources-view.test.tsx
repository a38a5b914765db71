import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { resourceCards } from '@/content/resources';
import type { Tier } from '@/content/tiers';
import { DownloadRefused } from '../lib/download-refused';
import { describeFile, type FilesState } from '../lib/resource-files';
import { ResourcesView, type ResourcesViewProps, type TierState } from './resources-view';

afterEach(() => {
  toast.dismiss();
});

const mimetypes: Record<string, string> = { pdf: 'application/pdf', epub: 'application/epub+zip', mp3: 'audio/mpeg' };

/** A file as the listing describes it: 1,500 bytes, the content type of its extension. */
const listed = (name: string) =>
  describeFile({ name, id: name, metadata: { size: 1500, mimetype: mimetypes[name.split('.').pop() ?? ''] } });

const ready = (...names: string[]): FilesState => ({
  status: 'ready',
  files: names.map((name) => ({
    ...listed(name),
    url: `https://project.test/functions/v1/download?path=ebook%2Febook%2F${name}`,
  })),
  prepare: () => Promise.reject(new Error('not asked in this test')),
});

/** A tier read that succeeded: a tier, or none (null). */
function known(tier: Tier | null, more: Partial<Extract<TierState, { status: 'ready' }>> = {}): TierState {
  return { status: 'ready', data: tier, refreshFailed: false, retrying: false, retry: () => undefined, ...more };
}

function setup({ tier, ...props }: Partial<Omit<ResourcesViewProps, 'tier'>> & { tier: Tier | null | TierState }) {
  const events: string[] = [];
  const router = createMemoryRouter(
    [
      {
        path: '/resources',
        element: (
          <>
            <Toaster />
            <ResourcesView
              tier={tier !== null && typeof tier === 'object' ? tier : known(tier)}
              files={{}}
              onSignOut={async () => void events.push('sign-out')}
              onSignedOut={() => void events.push('signed-out')}
              {...props}
            />
          </>
        ),
      },
      { path: '/bundles', element: <p>page:/bundles</p> },
    ],
    { initialEntries: ['/resources'] },
  );
  render(<RouterProvider router={router} />);
  return { user: userEvent.setup(), events };
}

function card(title: string): HTMLElement {
  return screen.getByRole('article', { name: title });
}

describe('ResourcesView', () => {
  it('shows the header, welcome banner, help footer and all six cards', () => {
    setup({ tier: 'complete' });
    expect(screen.getByRole('heading', { level: 1, name: 'Subscriber Resources' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeEnabled();
    expect(screen.getByRole('heading', { name: 'Welcome Back!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Yes, You Can! home' })).toHaveAttribute('href', '/');
    expect(screen.getAllByRole('article')).toHaveLength(6);
    for (const resource of resourceCards) expect(card(resource.title)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'hello@yesyoucanbook.com' })).toHaveAttribute(
      'href',
      'mailto:hello@yesyoucanbook.com',
    );
  });

  it('welcomes an account signing in for the first time as new', () => {
    setup({ tier: null, firstSignIn: true });
    expect(screen.getByRole('heading', { name: 'Welcome!' })).toBeInTheDocument();
    expect(screen.queryByText('Welcome Back!')).not.toBeInTheDocument();
  });

  it('puts the account menu it is given in the header, beside Sign Out', () => {
    setup({ tier: 'ebook', accountMenu: <button type="button">Account menu</button> });
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('button', { name: 'Account menu' })).toBeInTheDocument();
    expect(within(banner).getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'Yes, You Can! home' })).toHaveAttribute('href', '/');
  });

  it('without a tier: the notice, Bundle Options, every card locked and Ready for More?', async () => {
    const { user } = setup({ tier: null });
    expect(
      screen.getByText('No active subscription: Purchase here to access additional resources'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Current Tier:/)).not.toBeInTheDocument();
    expect(screen.getAllByText('Locked')).toHaveLength(6);
    expect(screen.getAllByRole('link', { name: /^Unlock with / })).toHaveLength(6);
    // The cheapest purchase that opens each card, with its price from the content module.
    expect(
      within(card('Yes, You Can! eBook')).getByRole('link', { name: 'Unlock with Yes, You Can! eBook ($24.95)' }),
    ).toHaveAttribute('href', 'https://shop.yesyoucanbook.com/products/yes-you-can-ebook');
    expect(
      within(card('Affirmation Cards')).getByRole('link', { name: 'Unlock with Foundation Builder ($49)' }),
    ).toHaveAttribute('href', '/bundles');
    expect(screen.getByRole('heading', { name: 'Ready for More?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Compare Bundles' })).toHaveAttribute('href', '/bundles');

    await user.click(screen.getByRole('link', { name: 'Bundle Options' }));
    expect(await screen.findByText('page:/bundles')).toBeInTheDocument();
  });

  it('foundation: four unlocked cards (downloads, coming soon, loading), two locked', () => {
    setup({
      tier: 'foundation',
      files: {
        ebook: ready('yes-you-can.epub', 'yes-you-can.pdf', 'quick-start-guide.pdf'),
        worksheets: ready(),
        'scripture-audio': { status: 'loading' },
        'affirmation-cards': ready('affirmation-cards.pdf'),
      },
    });
    expect(screen.getByText('Current Tier: Foundation Builder')).toBeInTheDocument();
    expect(screen.queryByText(/No active subscription/)).not.toBeInTheDocument();

    const ebook = within(card('Yes, You Can! eBook'));
    const links = ebook.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual([
      'Download Yes you can (EPUB eBook, 1.5 KB)',
      'Download Yes you can (PDF, 1.5 KB)',
      'Download Quick start guide (PDF, 1.5 KB)',
    ]);
    // Seen: the title, then its type and size.
    expect(links[2]).toHaveTextContent('Quick start guide PDF, 1.5 KB');
    const pdf = ebook.getByRole('link', { name: 'Download Yes you can (PDF, 1.5 KB)' });
    expect(pdf).toHaveAttribute(
      'href',
      'https://project.test/functions/v1/download?path=ebook%2Febook%2Fyes-you-can.pdf',
    );
    expect(pdf).toHaveAttribute('target', '_blank');
    expect(pdf).toHaveAttribute('rel', 'noopener noreferrer');
    expect(pdf).toHaveAttribute('download', 'yes-you-can.pdf');
    expect(ebook.queryByText('Locked')).not.toBeInTheDocument();

    expect(within(card('Worksheets & Checklists')).getByRole('button', { name: 'Coming soon' })).toBeDisabled();
    expect(within(card('Daily Scripture Audio Library')).getByRole('status')).toHaveTextContent('Loading files...');
    expect(
      within(card('Affirmation Cards')).getByRole('link', { name: 'Download Affirmation cards (PDF, 1.5 KB)' }),
    ).toBeInTheDocument();

    for (const title of ['Video Masterclass & Templates', '90-Day Publishing Roadmap']) {
      const locked = within(card(title));
      expect(locked.getByText('Locked')).toBeInTheDocument();
      expect(locked.getByRole('link', { name: /^Unlock with / })).toHaveAttribute('href', '/bundles');
    }
    expect(
      within(card('Video Masterclass & Templates')).getByRole('link', { name: /^Unlock with / }),
    ).toHaveAccessibleName('Unlock with Accelerated Success ($499)');
    expect(within(card('90-Day Publishing Roadmap')).getByRole('link', { name: /^Unlock with / })).toHaveAccessibleName(
      'Unlock with Complete Transformation ($1,495)',
    );
    // Only the content is dimmed: the call to action keeps its colour.
    const roadmap = card('90-Day Publishing Roadmap');
    expect(
      within(roadmap).getByRole('heading', { name: '90-Day Publishing Roadmap' }).closest('.grayscale'),
    ).not.toBeNull();
    expect(
      within(roadmap)
        .getByRole('link', { name: /^Unlock with / })
        .closest('.grayscale'),
    ).toBeNull();
    expect(roadmap).not.toHaveClass('grayscale');
    // An open card is not dimmed at all.
    expect(within(card('Affirmation Cards')).getByRole('heading').closest('.grayscale')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Ready for More?' })).toBeInTheDocument();
  });

  it('ebook tier unlocks only the ebook card', () => {
    setup({ tier: 'ebook', files: { ebook: ready('yes-you-can.pdf') } });
    expect(screen.getByText('Current Tier: Ebook Only')).toBeInTheDocument();
    expect(screen.getAllByText('Locked')).toHaveLength(5);
  });

  it('complete: everything unlocked, no Ready for More?', () => {
    const files = Object.fromEntries(resourceCards.map((resource) => [resource.slug, ready()]));
    setup({ tier: 'complete', files });
    expect(screen.getByText('Current Tier: Complete Transformation')).toBeInTheDocument();
    expect(screen.queryByText('Locked')).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Coming soon' })).toHaveLength(6);
    expect(screen.queryByRole('heading', { name: 'Ready for More?' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Compare Bundles' })).not.toBeInTheDocument();
  });

  it('accelerated still sees Ready for More?', () => {
    setup({ tier: 'accelerated' });
    expect(screen.getByText('Current Tier: Accelerated Success')).toBeInTheDocument();
    expect(screen.getAllByText('Locked')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Ready for More?' })).toBeInTheDocument();
  });

  it('could not load the tier: says so with Retry, no lock, no call to buy', async () => {
    let retries = 0;
    const { user } = setup({
      tier: { status: 'error', error: new Error('503'), retrying: false, retry: () => void (retries += 1) },
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load your subscription. Your purchases are safe");
    expect(screen.queryByText(/No active subscription/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Bundle Options' })).not.toBeInTheDocument();
    expect(screen.queryByText('Locked')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Unlock with / })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Ready for More?' })).not.toBeInTheDocument();
    expect(screen.getAllByText('Shown once your subscription has loaded.')).toHaveLength(6);
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(retries).toBe(1);
  });

  it('while a tier retry runs the button says so, keeps focus and does not retry twice', async () => {
    let retries = 0;
    const { user } = setup({
      tier: { status: 'error', error: new Error('503'), retrying: true, retry: () => void (retries += 1) },
    });
    const button = within(screen.getByRole('alert')).getByRole('button', { name: 'Retrying...' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.click(button);
    expect(button).toHaveFocus();
    expect(retries).toBe(0);
  });

  it('a failed refresh keeps the last good tier and its open cards, with a quiet Retry', async () => {
    let retries = 0;
    const { user } = setup({
      tier: known('foundation', { refreshFailed: true, retry: () => void (retries += 1) }),
      files: { ebook: ready('yes-you-can.pdf') },
    });
    expect(screen.getByText('Current Tier: Foundation Builder')).toBeInTheDocument();
    expect(screen.getAllByText('Locked')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Download Yes you can (PDF, 1.5 KB)' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText(/couldn't refresh your subscription/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retries).toBe(1);
  });

  it('a failed refresh of a card keeps its links, with a quiet Try again', async () => {
    let retries = 0;
    const files: FilesState = {
      ...ready('yes-you-can.pdf'),
      refreshFailed: { retry: () => void (retries += 1), retrying: false },
    } as FilesState;
    const { user } = setup({ tier: 'ebook', files: { ebook: files } });
    const ebook = within(card('Yes, You Can! eBook'));
    expect(ebook.getByRole('link', { name: 'Download Yes you can (PDF, 1.5 KB)' })).toBeInTheDocument();
    expect(ebook.getByText('Could not refresh the files just now.')).toBeInTheDocument();
    await user.click(ebook.getByRole('button', { name: 'Try again' }));
    expect(retries).toBe(1);
  });

  it('shows a per-card error with a working Try again', async () => {
    let retries = 0;
    const { user } = setup({
      tier: 'ebook',
      files: { ebook: { status: 'error', message: 'Network down', retry: () => void (retries += 1) } },
    });
    const alert = within(card('Yes, You Can! eBook')).getByRole('alert');
    expect(alert).toHaveTextContent('Could not load the files: Network down');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(retries).toBe(1);
  });

  it('signs out with the toast, then hands over', async () => {
    const { user, events } = setup({ tier: 'ebook' });
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument();
    expect(screen.getByText('Come back anytime to access your resources!')).toBeInTheDocument();
    expect(events).toEqual(['sign-out', 'signed-out']);
  });

  it('shows Error signing out and stays when sign-out fails', async () => {
    const { user, events } = setup({ tier: 'ebook', onSignOut: () => Promise.reject(new Error('Session not found')) });
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByText('Error signing out')).toBeInTheDocument();
    expect(screen.getByText('Session not found')).toBeInTheDocument();
    expect(events).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeEnabled();
  });

  describe('download links', () => {
    const cleanups: Array<() => void> = [];
    afterEach(() => {
      cleanups.splice(0).forEach((cleanup) => cleanup());
    });

    function deferred() {
      let resolve!: (url: string) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<string>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    }

    /** One ebook file, with a download function the test answers. */
    function setupLink() {
      const asked: string[] = [];
      const followed: string[] = [];
      let pending = deferred();
      const href = 'https://project.test/functions/v1/download?path=ebook%2Febook%2Fyes-you-can.pdf';
      const files: FilesState = {
        status: 'ready',
        files: [{ ...listed('yes-you-can.pdf'), url: href }],
        prepare: (name) => {
          asked.push(name);
          return pending.promise;
        },
      };
      const { user } = setup({ tier: 'ebook', files: { ebook: files }, onFollowDownload: (url) => followed.push(url) });
      const link = within(card('Yes, You Can! eBook')).getByRole('link', {
        name: 'Download Yes you can (PDF, 1.5 KB)',
      });
      // jsdom cannot navigate: after the page's own handler (React listens at the root),
      // record whether the browser would have followed the href.
      const defaults: boolean[] = [];
      const record = (event: MouseEvent) => {
        if (event.target instanceof Node && link.contains(event.target)) {
          defaults.push(!event.defaultPrevented);
          event.preventDefault();
        }
      };
      document.addEventListener('click', record);
      cleanups.push(() => document.removeEventListener('click', record));
      return {
        user,
        link,
        href,
        asked,
        followed,
        defaults,
        pending: () => pending,
        reset: () => (pending = deferred()),
      };
    }

    it('asks for the member’s copy, says it is being prepared, then follows the link, once however often clicked', async () => {
      const { user, link, href, asked, followed, defaults, pending } = setupLink();
      expect(link).toHaveAttribute('href', href);
      await user.click(link);
      expect(defaults).toEqual([false]);
      expect(asked).toEqual(['yes-you-can.pdf']);
      expect(link).toHaveAttribute('aria-busy', 'true');
      expect(within(card('Yes, You Can! eBook')).getByRole('status')).toHaveTextContent(
        'Preparing your copy of Yes you can…',
      );

      await user.click(link);
      expect(defaults).toEqual([false, false]);
      expect(asked).toEqual(['yes-you-can.pdf']);

      pending().resolve('https://project.test/storage/v1/object/sign/stamped-downloads/copy.pdf?token=t');
      await waitFor(() =>
        expect(followed).toEqual(['https://project.test/storage/v1/object/sign/stamped-downloads/copy.pdf?token=t']),
      );
      expect(link).not.toHaveAttribute('aria-busy');
      expect(within(card('Yes, You Can! eBook')).getByRole('status')).toHaveTextContent('');
    });

    it('says why when the copy is refused, follows nothing, and lets the member try again', async () => {
      const { user, link, asked, followed, pending, reset } = setupLink();
      await user.click(link);
      pending().reject(new Error('That file is not in your library.'));
      expect(await screen.findByText('Download failed')).toBeInTheDocument();
      expect(screen.getByText('That file is not in your library.')).toBeInTheDocument();
      expect(followed).toEqual([]);

      reset();
      await waitFor(() => expect(link).not.toHaveAttribute('aria-busy'));
      await user.click(link);
      expect(asked).toEqual(['yes-you-can.pdf', 'yes-you-can.pdf']);
    });

    it('says a file that cannot be prepared is known to the team, keeps it by the file, and asks nothing more', async () => {
      const { user, link, asked, followed, pending, reset } = setupLink();
      const words = "This file can't be prepared. We've told the team.";
      await user.click(link);
      pending().reject(new DownloadRefused(words, 'cannot_prepare', 422));
      expect(await screen.findByText('Download failed')).toBeInTheDocument();
      await waitFor(() => expect(link).not.toHaveAttribute('aria-busy'));
      expect(link).toHaveAccessibleDescription(words);
      expect(within(card('Yes, You Can! eBook')).getByText(words)).toBeInTheDocument();
      expect(within(card('Yes, You Can! eBook')).getByRole('status')).toHaveTextContent('');
      expect(asked).toEqual(['yes-you-can.pdf']);
      expect(followed).toEqual([]);

      // Staff replaced the file: the member's next click gets it, and the note goes.
      reset();
      await user.click(link);
      pending().resolve('https://project.test/storage/v1/object/sign/stamped-downloads/copy.pdf?token=t');
      await waitFor(() => expect(followed).toHaveLength(1));
      expect(link).not.toHaveAccessibleDescription();
      expect(asked).toEqual(['yes-you-can.pdf', 'yes-you-can.pdf']);
    });
  });
});
