import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { StaffDashboard } from '../lib/dashboard';
import { DashboardView } from './dashboard-view';

const dashboard = (topFiles: StaffDashboard['top_files']): StaffDashboard => ({
  time_zone: 'America/New_York',
  today: '2026-11-26',
  periods: [],
  chart: [],
  waiting_invitations: 0,
  unmatched_sales: 0,
  top_files: topFiles,
});

function topFilesSection(topFiles: StaffDashboard['top_files']) {
  render(
    <MemoryRouter>
      <DashboardView
        dashboard={{
          status: 'ready',
          data: dashboard(topFiles),
          refreshFailed: false,
          retrying: false,
          retry: () => {},
        }}
      />
    </MemoryRouter>,
  );
  return screen.getByRole('region', { name: 'Top files by downloads, last 30 days' });
}

describe('DashboardView: top files', () => {
  it('lists the files most downloaded first, with their counts', () => {
    const section = topFilesSection([
      { name: 'foundation/worksheets/plan.pdf', downloads: 12 },
      { name: 'ebook/ebook/guide.epub', downloads: 1 },
    ]);
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'foundation/worksheets/plan.pdf: 12 downloads',
      'ebook/ebook/guide.epub: 1 download',
    ]);
  });

  it('says when nothing was downloaded in the 30 days', () => {
    expect(topFilesSection([])).toHaveTextContent('No downloads in the last 30 days.');
  });

  it('says so when downloads are not logged', () => {
    expect(topFilesSection(null)).toHaveTextContent('Downloads are not logged yet.');
  });
});
