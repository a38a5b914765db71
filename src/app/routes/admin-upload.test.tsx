import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { useOfflineSupabaseEnv } from '@/testing/offline-supabase';
import { renderRoute } from '@/testing/render';

beforeAll(useOfflineSupabaseEnv);

describe('/admin-upload gate (route loader)', () => {
  it('shows a visitor the staff-only page with Sign In, never the form', async () => {
    const { Component, adminUploadLoader } = await import('./admin-upload');
    renderRoute(<Component />, { path: '/admin-upload', loader: adminUploadLoader });
    expect(await screen.findByRole('heading', { name: 'Staff only' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth?next=/admin-upload');
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
  });
});
