import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { StaffDashboard } from '../lib/dashboard';
import { DashboardView } from './dashboard-view';

const dashboard = (
  topFiles: StaffDashboard['top_files'],
  unstampable: StaffDashboard['unstampable_files'] = [],
  mailStatus: StaffDashboard['mail_status'] = { invites_via_auth: false, since: null, last_seen: null },
): StaffDashboard => ({
  time_zone: 'America/New_York',
  today: '2026-11-26',
  periods: [],
  chart: [],
  waiting_invitations: 0,
  unmatched_sales: 0,
  top_files: topFiles,
  unstampable_files: unstampable,
  mail_status: mailStatus,
});

function renderReady(data: StaffDashboard, attention?: ReactNode) {
  render(
    <MemoryRouter>
      <DashboardView
        dashboard={{
          status: 'ready',
          data,
          refreshFailed: false,
          retrying: false,
          retry: () => {},
        }}
        attention={attention}
      />
    </MemoryRouter>,
  );
}

function topFilesSection(topFiles: StaffDashboard['top_files']) {
  renderReady(dashboard(topFiles));
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

describe('DashboardView: files members cannot download', () => {
  it('lists each under Needs attention, with what to do in words and when members last hit it', () => {
    renderReady(
      dashboard(
        [],
        [
          {
            name: 'foundation/worksheets/locked.pdf',
            reason: 'encrypted',
            first_seen: '2026-11-20T09:00:00Z',
            last_seen: '2026-11-26T14:30:00Z',
            refusals: 3,
          },
          {
            name: 'ebook/ebook/notes.pdf',
            reason: 'not_pdf',
            first_seen: '2026-11-25T08:00:00Z',
            last_seen: '2026-11-25T08:00:00Z',
            refusals: 1,
          },
        ],
      ),
    );
    const attention = screen.getByRole('region', { name: 'Needs attention' });
    expect(within(attention).getByRole('heading', { name: "Files members can't download (2)" })).toBeInTheDocument();
    const items = within(
      within(attention).getByRole('list', { name: "Files members can't download (2)" }),
    ).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'foundation/worksheets/locked.pdf' +
        'This PDF is password-protected. Export it again without a password (and without permission restrictions), then upload it.' +
        'Last asked for 26 Nov 2026, 14:30 UTC; 3 downloads refused since 20 Nov 2026, 09:00 UTC.',
      'ebook/ebook/notes.pdf' +
        'This file is not a PDF. Export it again as a PDF, then upload it.' +
        'Last asked for 25 Nov 2026, 08:00 UTC; 1 download refused since 25 Nov 2026, 08:00 UTC.',
    ]);
    expect(within(attention).getByRole('link', { name: 'Upload a replacement' })).toHaveAttribute(
      'href',
      '/admin-upload',
    );
  });

  it('shows nothing of the kind when every file can be stamped', () => {
    renderReady(dashboard([]));
    const attention = screen.getByRole('region', { name: 'Needs attention' });
    expect(within(attention).queryByRole('heading', { name: /Files members can't download/ })).not.toBeInTheDocument();
  });
});

describe('DashboardView: invitations through Auth', () => {
  const notice = () =>
    within(screen.getByRole('region', { name: 'Needs attention' })).queryByRole('heading', {
      name: "Invitations go out through Supabase Auth's e-mail",
    });

  it('says so under Needs attention, since when, and gives the step that fixes it', () => {
    renderReady(
      dashboard([], [], {
        invites_via_auth: true,
        since: '2026-11-20T09:00:00Z',
        last_seen: '2026-11-26T14:30:00Z',
      }),
    );
    const heading = notice();
    expect(heading).toBeInTheDocument();
    const box = heading!.parentElement!;
    expect(box).toHaveTextContent('Since 20 Nov 2026, 09:00 UTC.');
    expect(box).toHaveTextContent('supabase secrets set MAIL_API_KEY=re_… MAIL_FROM=');
    expect(box).toHaveTextContent('README, “Going live”, step 4');
    expect(box).toHaveTextContent('As the webhook last reported, 26 Nov 2026, 14:30 UTC.');
  });

  it('says nothing while invitations go through the mail API', () => {
    renderReady(dashboard([]));
    expect(notice()).not.toBeInTheDocument();
  });

  it('says nothing before the webhook first reported', () => {
    renderReady(dashboard([], [], { invites_via_auth: null, since: null, last_seen: null }));
    expect(notice()).not.toBeInTheDocument();
  });
});

describe('DashboardView: more items of Needs attention', () => {
  it('shows them after the sales', () => {
    renderReady(dashboard([]), <a href="/staff/sessions">2 Unmatched bookings to assign to a member</a>);
    const links = within(screen.getByRole('region', { name: 'Needs attention' })).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      '0Buyers waiting for their invitation',
      '0Unmatched sales to map to a product',
      '2 Unmatched bookings to assign to a member',
    ]);
  });
});
