import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from '@/config/config-error';
import { ErrorPage } from './error-page';

function Thrower({ error }: { error: unknown }): never {
  throw error;
}

function renderThrowing(error: unknown) {
  const router = createMemoryRouter([{ path: '/', element: <Thrower error={error} />, errorElement: <ErrorPage /> }]);
  return render(<RouterProvider router={router} />);
}

describe('ErrorPage', () => {
  it('shows the router error screen with the message instead of a blank page', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderThrowing(new Error('Cannot read the cards'));
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('Cannot read the cards')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    quiet.mockRestore();
  });

  it('explains a missing configuration variable and how to fix it', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderThrowing(new ConfigError(['VITE_SUPABASE_ANON_KEY is missing.']));
    expect(screen.getByRole('heading', { name: 'The site is not configured yet' })).toBeInTheDocument();
    expect(screen.getByText('VITE_SUPABASE_ANON_KEY is missing.')).toBeInTheDocument();
    expect(screen.getByText('.env.local')).toBeInTheDocument();
    quiet.mockRestore();
  });
});
