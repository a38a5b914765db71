import { downloadLimits } from '@/config/downloads';
import { useDownloadFlags, useFileTotals, useMemberDownloads } from '../api/downloads';
import { DownloadsOverviewView, MemberDownloadsView } from './downloads-view';

/** Container of the downloads section of /staff/members: sharing flags and per-file totals. */
export function DownloadsOverview() {
  return <DownloadsOverviewView flags={useDownloadFlags()} totals={useFileTotals()} limits={downloadLimits} />;
}

/** Container of a chosen member's downloads. */
export function MemberDownloads({ userId, email }: { userId: string; email: string }) {
  return <MemberDownloadsView email={email} downloads={useMemberDownloads(userId)} />;
}
