import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { resourceCards } from '@/content/resources';
import { ResourcesSkeleton } from './resources-skeleton';

function renderSkeleton() {
  const router = createMemoryRouter([{ path: '/resources', element: <ResourcesSkeleton /> }], {
    initialEntries: ['/resources'],
  });
  render(<RouterProvider router={router} />);
}

describe('ResourcesSkeleton: /resources before the member data arrives', () => {
  it('shows the page and every card with its own text, busy, and nothing sold or locked yet', () => {
    renderSkeleton();
    expect(screen.getByRole('heading', { level: 1, name: 'Subscriber Resources' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Loading your resources...')).toHaveAttribute('role', 'status');
    expect(screen.getAllByRole('article')).toHaveLength(resourceCards.length);
    for (const resource of resourceCards) {
      const card = screen.getByRole('article', { name: resource.title });
      expect(within(card).getByText(resource.description)).toBeInTheDocument();
      expect(within(card).getByText('Loading files...')).toBeInTheDocument();
      expect(within(card).queryByText('Locked')).not.toBeInTheDocument();
    }
    expect(screen.queryByText(/Current Tier/)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Ready for More?' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Unlock with/ })).not.toBeInTheDocument();
  });

  it('offers no Sign Out until the page can run it', () => {
    renderSkeleton();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeDisabled();
  });
});
