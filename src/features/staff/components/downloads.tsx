import { downloadLimits } from '@/config/downloads';
import { useDownloadFlags, useFileTotals, useMemberDownloads, useMemberPlaces } from '../api/downloads';
import { DownloadsOverviewView, MemberDownloadsView, MemberPlacesView } from './downloads-view';

/** Container of the downloads section of /staff/members: sharing flags and per-file totals. */
export function DownloadsOverview() {
  return <DownloadsOverviewView flags={useDownloadFlags()} totals={useFileTotals()} limits={downloadLimits} />;
}

/** Container of a chosen member's downloads. */
export function MemberDownloads({ userId, email }: { userId: string; email: string }) {
  return <MemberDownloadsView email={email} downloads={useMemberDownloads(userId)} />;
}

/** Container of a chosen member's places in the audio and video. */
export function MemberPlaces({ userId, email }: { userId: string; email: string }) {
  return <MemberPlacesView email={email} places={useMemberPlaces(userId)} />;
}
