import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { site } from '@/content/site';
import { SalesVideo } from './sales-video';

describe('SalesVideo facade', () => {
  it('shows a labelled play button, and its frame hidden and empty until clicked', () => {
    const { container } = render(<SalesVideo />);
    expect(screen.getByRole('button', { name: 'Play video: Why your book still matters' })).toBeInTheDocument();
    // In the page, so the page alone can show it when Play is tapped before the app runs;
    // nothing of the video site's is loaded.
    const frame = container.querySelector('iframe');
    expect(frame).not.toBeVisible();
    expect(frame).not.toHaveAttribute('src');
    expect(screen.queryByTitle('Yes, You Can! sales video')).not.toBeVisible();
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
