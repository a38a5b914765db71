import { formatSessionStart } from '../../../../supabase/functions/_shared/calendar';
import { isPlayable, resourceType } from '../../../../supabase/functions/_shared/resource-types';
import type { MediaItem } from './media-progress';

export { formatSessionStart };

/** A time-bound benefit as member_benefits() answers it: the link only while it lasts. */
export type Benefit = {
  benefit: 'community' | 'vip_community' | 'circle' | 'qa';
  label: string;
  starts_at: string;
  ends_at: string;
  active: boolean;
  link: string | null;
};

/** A circle or Q&A call as member_live_sessions() answers it: never with its join link. */
export type LiveSession = {
  id: string;
  benefit: 'circle' | 'qa';
  label: string;
  title: string;
  starts_at: string;
  minutes: number;
  description: string | null;
  cancelled: boolean;
  recording_path: string | null;
  /** Whether session_join_link() hands out the link now (15 minutes before the start until the end). */
  joinable: boolean;
};

export type Live = { benefits: Benefit[]; sessions: LiveSession[] };

/** The communities: the benefits a member has a link for ("Community access until …"). */
export const COMMUNITY_BENEFITS: ReadonlySet<Benefit['benefit']> = new Set(['community', 'vip_community']);

/** How a sentence names a community: "Your community access ended…", "Open the VIP community". */
export const COMMUNITY_NAMES: Record<string, { access: string; group: string }> = {
  community: { access: 'community access', group: 'the community' },
  vip_community: { access: 'VIP community access', group: 'the VIP community' },
};

/** "7 March 2027", in the viewer's zone. */
export function formatDay(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(
    new Date(iso),
  );
}

/** The sessions still to come (or under way) and those over, each in start order. */
export function splitLive(sessions: readonly LiveSession[], now: Date) {
  const over = (s: LiveSession) => new Date(s.starts_at).getTime() + s.minutes * 60_000 <= now.getTime();
  return {
    upcoming: sessions.filter((s) => !over(s) && !s.cancelled),
    past: sessions.filter((s) => over(s) && !s.cancelled),
  };
}

/** The recordings of sessions held, to play in the member's player (those it can play). */
export function recordings(sessions: readonly LiveSession[]): MediaItem[] {
  return sessions.flatMap((session) => {
    const path = session.recording_path;
    if (!path || !isPlayable(path)) return [];
    const kind = resourceType(path)?.kind === 'video' ? 'video' : 'audio';
    return [{ path, name: path.slice(path.lastIndexOf('/') + 1), title: session.title, kind, captionsPath: null }];
  });
}
