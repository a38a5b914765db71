import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { site } from '@/content/site';
import { swap } from '@/lib/swap';
import { SalesVideo } from './sales-video';

describe('SalesVideo facade', () => {
  it('shows a labelled play button and no iframe until clicked', () => {
    const { container } = render(<SalesVideo />);
    expect(screen.getByRole('button', { name: 'Play video: Why your book still matters' })).toBeInTheDocument();
    expect(container.querySelector('iframe')).toBeNull();
  });

  it('keeps the frame the page made before the app ran: one frame, loaded once', async () => {
    const { container } = render(<SalesVideo />);
    const play = screen.getByRole('button', { name: /^Play video/ });
    // The page answered a tap before the app ran (answer-before-app.ts): it showed the video's
    // place at once, and made the frame once that was painted.
    swap(play);
    expect(container.querySelector('iframe')).toBeNull();
    const made = await waitFor(() => {
      const frame = container.querySelector('iframe');
      expect(frame).not.toBeNull();
      return frame;
    });
    // The app replays the tap and adopts it.
    await userEvent.click(play);
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    expect(container.querySelector('iframe')).toBe(made);
    expect(made).toBeVisible();
    expect(made).toHaveFocus();
  });

  it('makes one frame whichever of the page and the app replaying the tap comes first', async () => {
    const { container } = render(<SalesVideo />);
    const play = screen.getByRole('button', { name: /^Play video/ });
    swap(play);
    await userEvent.click(play);
    const frame = await waitFor(() => {
      const made = container.querySelector('iframe');
      expect(made).toHaveFocus();
      return made;
    });
    // The page's own turn comes after a paint: whichever made the frame, the other found it.
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    expect(container.querySelector('iframe')).toBe(frame);
    expect(frame).toHaveFocus();
  });

  it('is named by its visible words (no aria-label over them), as voice control users say them', () => {
    render(<SalesVideo />);
    const button = screen.getByRole('button', { name: /^Play video/ });
    expect(button).not.toHaveAttribute('aria-label');
    expect(button).toHaveTextContent(/^Play video.*Why your book still matters$/);
    expect(button).toHaveAccessibleName('Play video: Why your book still matters');
  });

  it('inserts the titled video iframe after the click, autoplaying and focused', async () => {
    render(<SalesVideo />);
    await userEvent.click(screen.getByRole('button', { name: /^Play video/ }));

    const frame = screen.getByTitle('Yes, You Can! sales video');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(`${site.urls.salesVideoEmbed}?autoplay=1&rel=0`);
    expect(frame).toHaveAttribute('width', '560');
    expect(frame).toHaveAttribute('height', '315');
    expect(frame).toHaveFocus();
    expect(screen.queryByRole('button', { name: /^Play video/ })).toBeNull();
  });

  it('also plays from the keyboard', async () => {
    render(<SalesVideo />);
    await userEvent.tab();
    expect(screen.getByRole('button', { name: /^Play video/ })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTitle('Yes, You Can! sales video')).toBeInTheDocument();
  });
});
