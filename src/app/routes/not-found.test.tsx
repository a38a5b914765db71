import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render';
import { Component as NotFound } from './not-found';

describe('404 page', () => {
  it('says the page is missing, logs the bad path and leads home', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderRoute(<NotFound />, { path: '*', at: '/no/such/page' });
    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('non-existent route'), '/no/such/page');
    await userEvent.click(screen.getByRole('link', { name: 'Return to Home' }));
    expect(screen.getByText('page:/')).toBeInTheDocument();
    log.mockRestore();
  });
});
