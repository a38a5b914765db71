import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { ReadState } from '@/lib/read-state';
import type { StaffDashboard } from '../lib/dashboard';
import type { StaffVisits, VisitPeriod } from '../lib/visits';
import { DashboardView } from './dashboard-view';
import { VisitsView } from './visits-view';

const visits = (overrides: Partial<StaffVisits> = {}): StaffVisits => ({
  days: 7,
  since: '2026-11-22',
  today: '2026-11-28',
  time_zone: 'America/New_York',
  funnel: { visitors: 120, bundles: 40, checkouts: 12, sales: 3 },
  by_campaign: [
    {
      source: 'podcast',
      medium: null,
      campaign: 'launch',
      visitors: 50,
      checkouts: 6,
      sales: 2,
      revenue: [
        { currency: 'USD', cents: 99400 },
        { currency: 'EUR', cents: 4700 },
      ],
    },
    { source: null, medium: null, campaign: null, visitors: 70, checkouts: 6, sales: 1, revenue: [] },
  ],
  by_referrer: [
    { referrer: 'youtube.com', visitors: 30, checkouts: 2, sales: 1, revenue: [{ currency: 'JPY', cents: 5000 }] },
    { referrer: null, visitors: 0, checkouts: 0, sales: 1, revenue: [{ currency: 'USD', cents: 49700 }] },
  ],
  plays: 17,
  returns: 1,
  chart: [],
  ...overrides,
});

const ready = (data: StaffVisits): ReadState<StaffVisits> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => {},
});

function renderView(state: ReadState<StaffVisits>, days: VisitPeriod = 7, onDaysChange = vi.fn()) {
  render(<VisitsView visits={state} days={days} onDaysChange={onDaysChange} />);
  return screen.getByRole('region', { name: 'Visits' });
}

/** A row's header and data cells' text, in order. */
const cellsOf = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent);

describe('VisitsView: the funnel', () => {
  it('lists the steps in order, each with its count and its shares', () => {
    const section = renderView(ready(visits()));
    const funnel = within(section).getByRole('list', { name: 'From visitor to sale in the last 7 days' });
    expect(
      within(funnel)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Visitors: 120',
      'Saw the bundles: 40 33.3% of visitors',
      'Checkout clicks: 12 30% of those who saw the bundles; 10% of visitors',
      'Sales: 3 25% of checkout clicks; 2.5% of visitors',
    ]);
    expect(section).toHaveTextContent('From 2026-11-22 to 2026-11-28 (today).');
    expect(section).toHaveTextContent('Sales video played 17 times; buyers back from a completed checkout once.');
  });

  it('says how visitors are counted', () => {
    expect(renderView(ready(visits()))).toHaveTextContent(
      'Visitors without JavaScript are not counted; visitors are counted per day, so one person on two days counts twice.',
    );
  });

  it('gives no share of a step that counted none', () => {
    const section = renderView(ready(visits({ funnel: { visitors: 0, bundles: 0, checkouts: 0, sales: 2 } })));
    const items = within(within(section).getByRole('list')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Visitors: 0',
      'Saw the bundles: 0',
      'Checkout clicks: 0',
      'Sales: 2',
    ]);
  });
});

describe('VisitsView: by campaign and by referring site', () => {
  it('shows each campaign with its revenue per currency and conversion, and direct / unknown', () => {
    const section = renderView(ready(visits()));
    const table = within(section).getByRole('table', {
      name: 'Visitors, checkout clicks, sales and revenue by campaign in the last 7 days',
    });
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Source', 'Medium', 'Campaign', 'Visitors', 'Checkout clicks', 'Sales', 'Revenue', 'Conversion']);
    expect(rows.map(cellsOf)).toEqual([
      ['podcast', '—', 'launch', '50', '6', '2', '$994.00 USD47.00 EUR', '4%'],
      ['direct / unknown', '70', '6', '1', '—', '1.4%'],
    ]);
  });

  it('shows each referring site, direct / unknown for none, with no conversion of no visitors', () => {
    const section = renderView(ready(visits()));
    const table = within(section).getByRole('table', {
      name: 'Visitors, checkout clicks, sales and revenue by referring site in the last 7 days',
    });
    const [, ...rows] = within(table).getAllByRole('row');
    expect(rows.map(cellsOf)).toEqual([
      ['youtube.com', '30', '2', '1', '5000 JPY', '3.3%'],
      ['direct / unknown', '0', '0', '1', '$497.00 USD', '—'],
    ]);
  });

  it('says so when a period has no rows', () => {
    const section = renderView(ready(visits({ by_campaign: [], by_referrer: [] })));
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
    expect(within(section).getAllByText('No visits or sales in the last 7 days.')).toHaveLength(2);
  });
});

describe('VisitsView: states', () => {
  it('says when nothing was counted or sold', () => {
    const empty = visits({
      days: 1,
      funnel: { visitors: 0, bundles: 0, checkouts: 0, sales: 0 },
      by_campaign: [],
      by_referrer: [],
      plays: 0,
      returns: 0,
    });
    const section = renderView(ready(empty), 1);
    expect(section).toHaveTextContent('Today, 2026-11-28.');
    expect(section).toHaveTextContent('No visits counted and no sales today.');
    expect(within(section).queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows a spinner while loading, and says when it takes retries', () => {
    renderView({ status: 'loading', retrying: false });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the visits...');
    cleanup();
    renderView({ status: 'loading', retrying: true });
    expect(screen.getByRole('status')).toHaveTextContent('Still loading the visits...');
  });

  it('shows a spinner, not the last period’s counts, while the chosen period loads', () => {
    const section = renderView({ ...ready(visits({ days: 7 })), retrying: true }, 30);
    expect(within(section).getByRole('status')).toHaveTextContent('Loading the visits...');
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when the visits could not load, with a retry', async () => {
    const retry = vi.fn();
    renderView({ status: 'error', error: new Error('Network down'), retrying: false, retry });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load the visits.");
    expect(alert).toHaveTextContent('Network down');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('keeps the last counts when a refresh fails, and says so', () => {
    renderView({ ...ready(visits()), refreshFailed: true } as ReadState<StaffVisits>);
    expect(screen.getByRole('status')).toHaveTextContent(
      "Couldn't refresh the visits; these are the last counts loaded.",
    );
    expect(screen.getByRole('table', { name: /by campaign/ })).toBeInTheDocument();
  });
});

describe('VisitsView: the period', () => {
  function Switchable({ onDaysChange }: { onDaysChange: (days: VisitPeriod) => void }) {
    const [days, setDays] = useState<VisitPeriod>(7);
    return (
      <VisitsView
        visits={ready(visits({ days }))}
        days={days}
        onDaysChange={(next) => {
          onDaysChange(next);
          setDays(next);
        }}
      />
    );
  }

  it('offers Today, 7 days, 30 days and 90 days as tabs, 7 days chosen, and switches on a click', async () => {
    const onDaysChange = vi.fn();
    render(<Switchable onDaysChange={onDaysChange} />);
    const tabs = within(screen.getByRole('tablist', { name: 'Period' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Today', '7 days', '30 days', '90 days']);
    expect(screen.getByRole('tab', { name: '7 days', selected: true })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: '30 days' }));
    expect(onDaysChange).toHaveBeenLastCalledWith(30);
    expect(screen.getByRole('tab', { name: '30 days', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('From 2026-11-22 to 2026-11-28 (today).');
    expect(screen.getByRole('list', { name: 'From visitor to sale in the last 30 days' })).toBeInTheDocument();
  });
});

describe('DashboardView with the visits', () => {
  const dashboard: StaffDashboard = {
    time_zone: 'America/New_York',
    today: '2026-11-28',
    periods: [],
    chart: [
      { day: '2026-11-26', tiers: { ebook: 0, foundation: 0, accelerated: 0, complete: 0 } },
      { day: '2026-11-27', tiers: { ebook: 1, foundation: 0, accelerated: 0, complete: 0 } },
      { day: '2026-11-28', tiers: { ebook: 0, foundation: 0, accelerated: 0, complete: 0 } },
    ],
    waiting_invitations: 0,
    unmatched_sales: 0,
    top_files: [],
    unstampable_files: [],
    mail_status: { invites_via_auth: false, since: null, last_seen: null },
  };

  function renderDashboard(visitorsPerDay?: StaffVisits['chart']) {
    const chart = vi.fn(() => null);
    render(
      <MemoryRouter>
        <DashboardView
          dashboard={{ status: 'ready', data: dashboard, refreshFailed: false, retrying: false, retry: () => {} }}
          chart={chart}
          visits={<section aria-label="The visits slot" />}
          visitorsPerDay={visitorsPerDay}
        />
      </MemoryRouter>,
    );
    return chart;
  }

  it('shows the visits under the sales figures, before the chart', () => {
    renderDashboard();
    const slot = screen.getByRole('region', { name: 'The visits slot' });
    const sales = screen.getByRole('region', { name: 'Sales and refunds' });
    const chart = screen.getByRole('region', { name: 'Sales per day, last 90 days' });
    expect(sales.compareDocumentPosition(slot) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(slot.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('adds each day’s visitors to the chart and its table', () => {
    const chart = renderDashboard([
      { day: '2026-11-26', visitors: 4 },
      { day: '2026-11-27', visitors: 0 },
      { day: '2026-11-28', visitors: 0 },
    ]);
    expect(chart).toHaveBeenCalledWith([
      { day: '2026-11-26', ebook: 0, foundation: 0, accelerated: 0, complete: 0, visitors: 4 },
      { day: '2026-11-27', ebook: 1, foundation: 0, accelerated: 0, complete: 0, visitors: 0 },
      { day: '2026-11-28', ebook: 0, foundation: 0, accelerated: 0, complete: 0, visitors: 0 },
    ]);
    expect(screen.getByRole('heading', { name: 'Sales and visitors per day, last 90 days' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Sales per day by product, and visitors, days with either' });
    const [, ...rows] = within(table).getAllByRole('row');
    expect(rows.map(cellsOf)).toEqual([
      ['2026-11-26', '0', '0', '0', '0', '4'],
      ['2026-11-27', '1', '0', '0', '0', '0'],
    ]);
  });

  it('charts sales alone until the visits load', () => {
    const chart = renderDashboard();
    expect(chart).toHaveBeenCalledWith([
      { day: '2026-11-26', ebook: 0, foundation: 0, accelerated: 0, complete: 0 },
      { day: '2026-11-27', ebook: 1, foundation: 0, accelerated: 0, complete: 0 },
      { day: '2026-11-28', ebook: 0, foundation: 0, accelerated: 0, complete: 0 },
    ]);
    expect(screen.getByRole('heading', { name: 'Sales per day, last 90 days' })).toBeInTheDocument();
  });
});
