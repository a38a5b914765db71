import type { ReactNode } from 'react';
import { RetryButton } from '@/components/ui/retry-button';
import { ScrollTable } from '@/components/ui/scroll-table';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import { formatMoney } from '../lib/catalog';
import {
  DIRECT_UNKNOWN,
  formatShare,
  funnelSteps,
  isDirectCampaign,
  isEmptyPeriod,
  visitPeriodLabel,
  visitPeriodPhrase,
  visitPeriods,
  type CampaignRow,
  type ReferrerRow,
  type Revenue,
  type StaffVisits,
  type VisitPeriod,
} from '../lib/visits';

export type VisitsViewProps = {
  visits: ReadState<StaffVisits>;
  /** The period chosen; `visits` may still hold the one before while it loads. */
  days: VisitPeriod;
  onDaysChange: (days: VisitPeriod) => void;
};

/**
 * The visits counted without cookies, for a period chosen with tabs: the funnel from visitor to
 * sale, then visitors, checkout clicks, sales and revenue by campaign and by referring site.
 */
export function VisitsView({ visits, days, onDaysChange }: VisitsViewProps) {
  return (
    <section aria-labelledby="visits-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="visits-title" className="text-navy-900 text-xl font-semibold">
        Visits
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Visitors without JavaScript are not counted; visitors are counted per day, so one person on two days counts
        twice.
      </p>
      <Tabs
        value={String(days)}
        onValueChange={(value) => onDaysChange(visitPeriods.find((period) => String(period) === value) ?? days)}
        className="mt-4"
      >
        <TabsList aria-label="Period" className="sm:grid-cols-4">
          {visitPeriods.map((period) => (
            <TabsTrigger key={period} value={String(period)}>
              {visitPeriodLabel(period)}
            </TabsTrigger>
          ))}
        </TabsList>
        {visitPeriods.map((period) => (
          <TabsContent key={period} value={String(period)}>
            <Panel visits={visits} days={period} />
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}

/** The chosen period's counts, or that they are loading or could not load. */
function Panel({ visits, days }: { visits: ReadState<StaffVisits>; days: VisitPeriod }) {
  // A ready answer of another period is the one before, kept while this one loads.
  if (visits.status === 'ready' && visits.data.days !== days) {
    return <Spinner label="Loading the visits..." className="py-8" />;
  }
  if (visits.status === 'loading') {
    return (
      <Spinner label={visits.retrying ? 'Still loading the visits...' : 'Loading the visits...'} className="py-8" />
    );
  }
  if (visits.status === 'error') {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 py-4">
        <p className="text-navy-900 font-semibold">We couldn&apos;t load the visits.</p>
        <p className="text-navy-800">{errorMessage(visits.error)}</p>
        <RetryButton retry={visits.retry} retrying={visits.retrying} variant="gold" size="md" />
      </div>
    );
  }
  return (
    <>
      {visits.refreshFailed && (
        <p role="status" className="mb-3 flex flex-wrap items-center gap-3 text-sm text-slate-700">
          Couldn&apos;t refresh the visits; these are the last counts loaded.
          <RetryButton retry={visits.retry} retrying={visits.retrying} />
        </p>
      )}
      <Counts data={visits.data} />
    </>
  );
}

function Counts({ data }: { data: StaffVisits }) {
  const span = data.days === 1 ? `Today, ${data.today}.` : `From ${data.since} to ${data.today} (today).`;
  if (isEmptyPeriod(data)) {
    return (
      <>
        <p className="text-navy-800">{span}</p>
        <p className="text-navy-800 mt-2">No visits counted and no sales {visitPeriodPhrase(data.days)}.</p>
      </>
    );
  }
  return (
    <div className="flex flex-col gap-5">
      <p className="text-navy-800">{span}</p>
      <Funnel data={data} />
      <p className="text-navy-800">
        Sales video played {times(data.plays)}; buyers back from a completed checkout {times(data.returns)}.
      </p>
      <div>
        <h3 className="text-navy-900 text-lg font-semibold">By campaign</h3>
        <CampaignTable rows={data.by_campaign} days={data.days} />
      </div>
      <div>
        <h3 className="text-navy-900 text-lg font-semibold">By referring site</h3>
        <ReferrerTable rows={data.by_referrer} days={data.days} />
      </div>
    </div>
  );
}

function times(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}

/** Visitors → Saw the bundles → Checkout clicks → Sales, each with its shares, as an ordered list. */
function Funnel({ data }: { data: StaffVisits }) {
  return (
    <ol aria-label={`From visitor to sale ${visitPeriodPhrase(data.days)}`} className="grid gap-3 sm:grid-cols-4">
      {funnelSteps(data).map((step) => (
        <li key={step.label} className="bg-navy-50 rounded-lg p-3">
          <span className="text-navy-800 block">
            {step.label}
            <span className="sr-only">:</span>
          </span>
          <span className="text-navy-900 block text-3xl font-bold"> {step.count}</span>
          {step.ofPrevious !== null && step.previousLabel !== null && (
            <span className="block text-sm text-slate-700">
              {' '}
              {step.ofPrevious} of {step.previousLabel}
              {step.ofVisitors !== null && <>; {step.ofVisitors} of visitors</>}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

function money(revenue: readonly Revenue[]): ReactNode {
  if (revenue.length === 0) return '—';
  return revenue.map((r) => (
    <span key={r.currency} className="block">
      {formatMoney(r.cents, r.currency)}
    </span>
  ));
}

const cell = 'px-3 py-2';

/** Visitors, checkout clicks, sales, revenue per currency and sales ÷ visitors. */
function countCells(row: CampaignRow | ReferrerRow) {
  return (
    <>
      <td className={cell}>{row.visitors}</td>
      <td className={cell}>{row.checkouts}</td>
      <td className={cell}>{row.sales}</td>
      <td className={cell}>{money(row.revenue)}</td>
      <td className={cell}>{formatShare(row.sales, row.visitors) ?? '—'}</td>
    </>
  );
}

const countColumns = ['Visitors', 'Checkout clicks', 'Sales', 'Revenue', 'Conversion'];

function CampaignTable({ rows, days }: { rows: CampaignRow[]; days: VisitPeriod }) {
  if (rows.length === 0) return <p className="text-navy-800 mt-2">No visits or sales {visitPeriodPhrase(days)}.</p>;
  return (
    <ScrollTable
      captionId="visits-campaigns-caption"
      caption={`Visitors, checkout clicks, sales and revenue by campaign ${visitPeriodPhrase(days)}`}
      columns={['Source', 'Medium', 'Campaign', ...countColumns]}
      minWidthClassName="min-w-[48rem]"
      className="mt-2"
    >
      {rows.map((row) => (
        <tr key={`${row.source}|${row.medium}|${row.campaign}`} className="border-t border-slate-200 align-top">
          {isDirectCampaign(row) ? (
            <th scope="row" colSpan={3} className={`${cell} text-left font-semibold`}>
              {DIRECT_UNKNOWN}
            </th>
          ) : (
            <>
              <th scope="row" className={`${cell} text-left font-semibold break-all`}>
                {row.source ?? '—'}
              </th>
              <td className={`${cell} break-all`}>{row.medium ?? '—'}</td>
              <td className={`${cell} break-all`}>{row.campaign ?? '—'}</td>
            </>
          )}
          {countCells(row)}
        </tr>
      ))}
    </ScrollTable>
  );
}

function ReferrerTable({ rows, days }: { rows: ReferrerRow[]; days: VisitPeriod }) {
  if (rows.length === 0) return <p className="text-navy-800 mt-2">No visits or sales {visitPeriodPhrase(days)}.</p>;
  return (
    <ScrollTable
      captionId="visits-referrers-caption"
      caption={`Visitors, checkout clicks, sales and revenue by referring site ${visitPeriodPhrase(days)}`}
      columns={['Referring site', ...countColumns]}
      minWidthClassName="min-w-[40rem]"
      className="mt-2"
    >
      {rows.map((row) => (
        <tr key={row.referrer ?? ''} className="border-t border-slate-200 align-top">
          <th scope="row" className={`${cell} text-left font-semibold break-all`}>
            {row.referrer ?? DIRECT_UNKNOWN}
          </th>
          {countCells(row)}
        </tr>
      ))}
    </ScrollTable>
  );
}
