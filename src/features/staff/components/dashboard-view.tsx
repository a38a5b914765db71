import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { RetryButton } from '@/components/ui/retry-button';
import { ScrollTable } from '@/components/ui/scroll-table';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { tierLabel, tiers } from '@/content/tiers';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import { PDF_PROBLEM_ADVICE } from '../../../../supabase/functions/_shared/pdf-problems';
import { formatMoney } from '../lib/catalog';
import {
  chartRows,
  periodLabel,
  type DashboardPeriod,
  type StaffDashboard,
  type MailStatus,
  type UnstampableFile,
} from '../lib/dashboard';
import { formatDateTime } from '../lib/members';
import { withVisitors, type VisitorDay } from '../lib/visits';
import { StaffNav } from './staff-nav';

/** A day of the chart: its sales per tier, and its visitors once the visits have loaded. */
export type ChartRow = ReturnType<typeof chartRows>[number] & { visitors?: number };

export type DashboardViewProps = {
  dashboard: ReadState<StaffDashboard>;
  /** The chart of sales per day (the container loads the chart library only on this page). */
  chart?: (rows: ChartRow[]) => ReactNode;
  /** The visits section, shown under the sales figures (it loads and fails on its own). */
  visits?: ReactNode;
  /** Visitors per day over the same 90 days, added to the chart and its table once loaded. */
  visitorsPerDay?: readonly VisitorDay[];
  /** More items of "Needs attention" (the coaching's, the live sessions'), each read on its own. */
  attention?: ReactNode;
};

/** /staff: the owner's figures at a glance, computed by the database in the owner's time zone. */
export function DashboardView({ dashboard, chart, visits, visitorsPerDay, attention }: DashboardViewProps) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-3">
        <StaffNav />
        <h1 className="text-navy-900 font-serif text-3xl font-bold">Dashboard</h1>
      </header>
      {dashboard.status === 'loading' && (
        <Spinner
          label={dashboard.retrying ? 'Still loading the figures...' : 'Loading the figures...'}
          className="py-10"
        />
      )}
      {dashboard.status === 'error' && (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-xl bg-white p-6 shadow-sm">
          <p className="text-navy-900 font-semibold">We couldn&apos;t load the figures.</p>
          <p className="text-navy-800">{errorMessage(dashboard.error)}</p>
          <RetryButton retry={dashboard.retry} retrying={dashboard.retrying} variant="gold" size="md" />
        </div>
      )}
      {dashboard.status === 'ready' && (
        <Figures
          data={dashboard.data}
          chart={chart}
          visits={visits}
          visitorsPerDay={visitorsPerDay}
          attention={attention}
        />
      )}
    </main>
  );
}

function Figures({
  data,
  chart,
  visits,
  visitorsPerDay,
  attention,
}: { data: StaffDashboard } & Pick<DashboardViewProps, 'chart' | 'visits' | 'visitorsPerDay' | 'attention'>) {
  const rows = withVisitors(chartRows(data), visitorsPerDay);
  const charted = visitorsPerDay ? 'Sales and visitors' : 'Sales';
  return (
    <>
      <p className="text-navy-800">
        Days run midnight to midnight in {data.time_zone}; today is {data.today}.
      </p>
      <Attention
        waiting={data.waiting_invitations}
        unmatched={data.unmatched_sales}
        unstampable={data.unstampable_files}
        mailStatus={data.mail_status}
        more={attention}
      />
      <section aria-labelledby="sales-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="sales-title" className="text-navy-900 text-xl font-semibold">
          Sales and refunds
        </h2>
        <PeriodTable periods={data.periods} />
      </section>
      {visits}
      <section aria-labelledby="chart-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="chart-title" className="text-navy-900 text-xl font-semibold">
          {charted} per day, last 90 days
        </h2>
        <div className="mt-4">{chart?.(rows)}</div>
        <ChartTable rows={rows} hasVisitors={visitorsPerDay !== undefined} />
      </section>
      <section aria-labelledby="top-files-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="top-files-title" className="text-navy-900 text-xl font-semibold">
          Top files by downloads, last 30 days
        </h2>
        <TopFiles files={data.top_files} />
      </section>
    </>
  );
}

function TopFiles({ files }: { files: StaffDashboard['top_files'] }) {
  if (files === null) return <p className="text-navy-800 mt-2">Downloads are not logged yet.</p>;
  if (files.length === 0) return <p className="text-navy-800 mt-2">No downloads in the last 30 days.</p>;
  return (
    <ol className="text-navy-800 mt-2 list-decimal space-y-1 pl-6">
      {files.map((file) => (
        <li key={file.name}>
          <span className="break-all">{file.name}</span>: {file.downloads}{' '}
          {file.downloads === 1 ? 'download' : 'downloads'}
        </li>
      ))}
    </ol>
  );
}

function Attention({
  waiting,
  unmatched,
  unstampable,
  mailStatus,
  more,
}: {
  waiting: number;
  unmatched: number;
  unstampable: readonly UnstampableFile[];
  mailStatus: MailStatus;
  more: ReactNode;
}) {
  return (
    <section aria-label="Needs attention" className="grid gap-4 sm:grid-cols-2">
      <Link to={paths.staffMembers} className="hover:bg-navy-50 rounded-xl bg-white p-4 shadow-sm">
        <span className="text-navy-900 block text-3xl font-bold">{waiting}</span>
        <span className="text-navy-800">Buyers waiting for their invitation</span>
      </Link>
      <Link to={paths.staffCatalog} className="hover:bg-navy-50 rounded-xl bg-white p-4 shadow-sm">
        <span className="text-navy-900 block text-3xl font-bold">{unmatched}</span>
        <span className="text-navy-800">Unmatched sales to map to a product</span>
      </Link>
      {more}
      {mailStatus.invites_via_auth === true && <InvitesThroughAuth status={mailStatus} />}
      {unstampable.length > 0 && <UnstampableFiles files={unstampable} />}
    </section>
  );
}

/**
 * The purchase webhook has no mail API key, so buyers' invitations go through Auth's e-mail,
 * which a flood of sign-ups or resets can spend: said, with the step that fixes it.
 */
function InvitesThroughAuth({ status }: { status: MailStatus }) {
  return (
    <div className="rounded-xl border-l-4 border-red-700 bg-white p-4 shadow-sm sm:col-span-2">
      <h2 id="mail-path-title" className="text-navy-900 text-xl font-semibold">
        Invitations go out through Supabase Auth&apos;s e-mail
      </h2>
      <p className="text-navy-800 mt-1">
        The purchase webhook has no mail API key, so each buyer&apos;s &ldquo;Your files are ready&rdquo; shares
        Auth&apos;s hourly e-mail budget with sign-ups and password resets, and waits when it is spent.
        {status.since && <> Since {formatDateTime(status.since)}.</>}
      </p>
      <p className="text-navy-800 mt-2">
        To fix it, give the webhook its mail secrets (README, &ldquo;Going live&rdquo;, step 4):
      </p>
      <pre className="bg-navy-50 text-navy-900 mt-2 overflow-x-auto rounded-lg p-3 text-sm">
        <code>
          supabase secrets set MAIL_API_KEY=re_… MAIL_FROM=&apos;Yes, You Can! &lt;hello@your-domain&gt;&apos;
        </code>
      </pre>
      {status.last_seen && (
        <p className="mt-2 text-sm text-slate-700">
          As the webhook last reported, {formatDateTime(status.last_seen)}. It reports again with the next invitation.
        </p>
      )}
    </div>
  );
}

/**
 * Files members asked for and were refused because their copy cannot be stamped: each with
 * what to do, in words, and when members last hit it. A replaced file leaves the list.
 */
function UnstampableFiles({ files }: { files: readonly UnstampableFile[] }) {
  return (
    <div className="rounded-xl border-l-4 border-red-700 bg-white p-4 shadow-sm sm:col-span-2">
      <h2 id="unstampable-title" className="text-navy-900 text-xl font-semibold">
        Files members can&apos;t download ({files.length})
      </h2>
      <p className="text-navy-800 mt-1">
        Members who ask for these are told the file can&apos;t be prepared. Upload a new version with the same name and
        it leaves this list.
      </p>
      <ul aria-labelledby="unstampable-title" className="mt-3 flex flex-col gap-3">
        {files.map((file) => (
          <li key={file.name} className="border-navy-100 rounded-lg border p-3">
            <p className="text-navy-900 font-semibold break-all">{file.name}</p>
            <p className="text-navy-800 mt-1">{PDF_PROBLEM_ADVICE[file.reason]}</p>
            <p className="mt-1 text-sm text-slate-700">
              Last asked for {formatDateTime(file.last_seen)}; {file.refusals}{' '}
              {file.refusals === 1 ? 'download' : 'downloads'} refused since {formatDateTime(file.first_seen)}.
            </p>
          </li>
        ))}
      </ul>
      <Link to={paths.adminUpload} className="text-navy-900 mt-3 inline-block underline underline-offset-2">
        Upload a replacement
      </Link>
    </div>
  );
}

function money(period: DashboardPeriod, key: 'revenue_cents' | 'refunded_cents' | 'net_cents'): ReactNode {
  if (period.currencies.length === 0) return '—';
  return period.currencies.map((c) => (
    <span key={c.currency} className="block">
      {formatMoney(c[key], c.currency)}
    </span>
  ));
}

function PeriodTable({ periods }: { periods: DashboardPeriod[] }) {
  return (
    <ScrollTable
      captionId="periods-caption"
      caption="Sales, revenue, refunds and net per period"
      columns={['Period', 'Sales', 'Revenue', 'Refunds', 'Refunded', 'Net']}
      minWidthClassName="min-w-[40rem]"
      className="mt-4"
    >
      {periods.map((period) => (
        <tr key={period.days} className="border-t border-slate-200 align-top">
          <th scope="row" className="py-2 pr-4 text-left font-semibold">
            {periodLabel(period.days)}
          </th>
          <td className="py-2 pr-4">{period.sales}</td>
          <td className="py-2 pr-4">{money(period, 'revenue_cents')}</td>
          <td className="py-2 pr-4">{period.refunds}</td>
          <td className="py-2 pr-4">{money(period, 'refunded_cents')}</td>
          <td className="py-2 pr-4">{money(period, 'net_cents')}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}

/**
 * The chart's figures as a table, folded away: for screen readers, keyboards and exact counts.
 * Once the visits have loaded, with a column of visitors and the days with visitors too.
 */
function ChartTable({ rows, hasVisitors }: { rows: ChartRow[]; hasVisitors: boolean }) {
  const shown = rows.filter((row) => tiers.some((tier) => row[tier] > 0) || (row.visitors ?? 0) > 0);
  const [what, days] = hasVisitors ? ['Sales and visitors', 'sales or visitors'] : ['Sales', 'sales'];
  return (
    <details className="mt-4">
      <summary className="text-navy-800 cursor-pointer underline underline-offset-2">
        {what} per day as a table ({shown.length} days with {days})
      </summary>
      <ScrollTable
        captionId="chart-caption"
        caption={
          hasVisitors
            ? 'Sales per day by product, and visitors, days with either'
            : 'Sales per day by product, days with sales'
        }
        columns={['Day', ...tiers.map((tier) => tierLabel(tier)), ...(hasVisitors ? ['Visitors'] : [])]}
        minWidthClassName="min-w-[36rem]"
        className="mt-2"
      >
        {shown.map((row) => (
          <tr key={row.day} className="border-t border-slate-200">
            <th scope="row" className="py-1 pr-4 text-left font-normal">
              {row.day}
            </th>
            {tiers.map((tier) => (
              <td key={tier} className="py-1 pr-4">
                {row[tier]}
              </td>
            ))}
            {hasVisitors && <td className="py-1 pr-4">{row.visitors ?? 0}</td>}
          </tr>
        ))}
      </ScrollTable>
    </details>
  );
}
