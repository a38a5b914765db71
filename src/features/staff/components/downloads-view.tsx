import { ScrollTable } from '@/components/ui/scroll-table';
import type { ReadState } from '@/lib/read-state';
import type { DownloadFlag, FileTotal, MemberDownload, MemberPlace } from '../api/downloads';
import { formatDateTime } from '../lib/members';
import { Read } from './staff-read';

export type DownloadLimits = { perDay: number; addresses: number };

/** Why a member is flagged, in words: each limit they passed in the last 24 hours. */
export function flagReasons(flag: Pick<DownloadFlag, 'downloads' | 'addresses'>, limits: DownloadLimits): string {
  const reasons = [];
  if (flag.downloads > limits.perDay) reasons.push(`${flag.downloads} downloads (limit ${limits.perDay})`);
  if (flag.addresses > limits.addresses) reasons.push(`${flag.addresses} addresses (limit ${limits.addresses})`);
  return reasons.join(', ');
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * /staff/members: members whose downloads look like sharing (past a limit in the last 24 hours),
 * for staff to judge (nothing is blocked), and how often each file was downloaded (a list: the
 * page's one table is the member list).
 */
export function DownloadsOverviewView({
  flags,
  totals,
  limits,
}: {
  flags: ReadState<DownloadFlag[]>;
  totals: ReadState<FileTotal[]>;
  limits: DownloadLimits;
}) {
  return (
    <section aria-labelledby="downloads-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="downloads-title" className="text-navy-900 font-serif text-xl font-bold">
        Downloads
      </h2>
      <h3 className="text-navy-900 mt-3 font-semibold">Possible sharing</h3>
      <p className="text-navy-800 text-sm">
        Members with more than {limits.perDay} downloads, or downloads from more than {limits.addresses} addresses, in
        the last 24 hours. Nothing is blocked: judge for yourself.
      </p>
      <div className="mt-2">
        <Read read={flags} what="the sharing flags">
          {(rows) =>
            rows.length === 0 ? (
              <p className="text-navy-800 text-sm">Nobody is past a limit.</p>
            ) : (
              <ul className="divide-navy-100 border-navy-100 divide-y rounded-lg border">
                {rows.map((flag) => (
                  <li key={flag.userId} className="p-3">
                    <p className="text-navy-900 font-semibold break-all">{flag.email}</p>
                    <p className="text-navy-800 text-sm">
                      {flagReasons(flag, limits)} · last {formatDateTime(flag.lastAt)}
                    </p>
                  </li>
                ))}
              </ul>
            )
          }
        </Read>
      </div>
      <h3 className="text-navy-900 mt-5 font-semibold">Downloads per file</h3>
      <div className="mt-2">
        <Read read={totals} what="the download totals">
          {(rows) =>
            rows.length === 0 ? (
              <p className="text-navy-800 text-sm">No downloads yet.</p>
            ) : (
              <ul
                aria-label="Downloads per file"
                className="divide-navy-100 border-navy-100 divide-y rounded-lg border"
              >
                {rows.map((row) => (
                  <li key={row.fileName} className="p-3">
                    <p className="text-navy-900 font-semibold break-all">{row.fileName}</p>
                    <p className="text-navy-800 text-sm">
                      {count(row.downloads, 'download')} by {count(row.members, 'member')} · latest{' '}
                      {formatDateTime(row.lastAt)}
                    </p>
                  </li>
                ))}
              </ul>
            )
          }
        </Read>
      </div>
    </section>
  );
}

/** One member's downloads, newest first: the file, when, and from which address. */
export function MemberDownloadsView({ email, downloads }: { email: string; downloads: ReadState<MemberDownload[]> }) {
  return (
    <section
      aria-labelledby="member-downloads-title"
      className="border-navy-100 rounded-xl border bg-white p-4 shadow-sm sm:p-6"
    >
      {/* Named without the address: the member's own panel is the region named by it. */}
      <h2 id="member-downloads-title" className="text-navy-900 font-serif text-xl font-bold">
        Their downloads
      </h2>
      <p className="text-navy-800 text-sm wrap-anywhere">
        What {email} downloaded or played (once a day per file), newest first.
      </p>
      <div className="mt-3">
        <Read read={downloads} what="the downloads">
          {(rows) =>
            rows.length === 0 ? (
              <p className="text-navy-800 text-sm">No downloads yet.</p>
            ) : (
              <ScrollTable
                captionId="member-downloads-caption"
                caption="Files this member downloaded"
                columns={['File', 'What', 'When', 'Address']}
                minWidthClassName="min-w-[32rem]"
              >
                {rows.map((row) => (
                  <tr key={row.id} className="border-navy-100 border-t">
                    <td className="px-3 py-2 break-all">{row.fileName}</td>
                    <td className="px-3 py-2">{row.played ? 'Played' : 'Downloaded'}</td>
                    <td className="px-3 py-2">{formatDateTime(row.at)}</td>
                    <td className="px-3 py-2">{row.ip ?? 'Unknown'}</td>
                  </tr>
                ))}
              </ScrollTable>
            )
          }
        </Read>
      </div>
    </section>
  );
}

/** A chosen member's audio and video: how far they got in each, and what they finished. */
export function MemberPlacesView({ email, places }: { email: string; places: ReadState<MemberPlace[]> }) {
  return (
    <section
      aria-labelledby="member-places-title"
      className="border-navy-100 rounded-xl border bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="member-places-title" className="text-navy-900 font-serif text-xl font-bold">
        Their listening and watching
      </h2>
      <p className="text-navy-800 text-sm wrap-anywhere">How far {email} got in each audio and video file.</p>
      <div className="mt-3">
        <Read read={places} what="the listening and watching">
          {(rows) =>
            rows.length === 0 ? (
              <p className="text-navy-800 text-sm">Nothing played yet.</p>
            ) : (
              <ScrollTable
                captionId="member-places-caption"
                caption="How far this member got in each file"
                columns={['File', 'Progress', 'Last played']}
                minWidthClassName="min-w-[32rem]"
              >
                {rows.map((row) => (
                  <tr key={row.fileName} className="border-navy-100 border-t">
                    <td className="px-3 py-2 break-all">{row.fileName}</td>
                    <td className="px-3 py-2">
                      {row.finished ? `Finished (at ${row.percent} %)` : `${row.percent} %`}
                    </td>
                    <td className="px-3 py-2">{formatDateTime(row.at)}</td>
                  </tr>
                ))}
              </ScrollTable>
            )
          }
        </Read>
      </div>
    </section>
  );
}
