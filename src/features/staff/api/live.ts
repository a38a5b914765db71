import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { readState, type ReadState } from '@/lib/read-state';
import {
  parseLiveOverview,
  parseMemberBenefits,
  REASON_REQUIRED,
  type BenefitChangeData,
  type BenefitFormData,
  type LiveOverview,
  type MemberBenefits,
  type SessionFormData,
} from '../lib/live';
import { retryUnlessRefused } from './list-members';
import { callStaffRpc, StaffRpcError } from './staff-rpc';

/** The live reads' cache keys: a change reads again the overview and, for a member's, their access. */
export const liveKeys = {
  all: ['staff', 'live'] as const,
  overview: ['staff', 'live', 'overview'] as const,
  member: (userId: string) => ['staff', 'live', 'member', userId] as const,
};

/**
 * An argument the function takes as SQL null ("none": a new session's id, the days of an end).
 * The generated types give every argument as non-null, so it is typed as they have it.
 */
function sqlNull<T>(value: T | null): T {
  return value as T;
}

/** The overview refreshes while open: members' access and who holds a session change by the hour. */
const REFRESH_MS = 60_000;

export async function getLiveOverview(): Promise<LiveOverview> {
  return parseLiveOverview(await callStaffRpc('staff_live_overview', {}));
}

export function liveOverviewQueryOptions() {
  return queryOptions({
    queryKey: liveKeys.overview,
    queryFn: getLiveOverview,
    retry: retryUnlessRefused,
    refetchInterval: REFRESH_MS,
    meta: { errorMessage: 'Could not read the live sessions' },
  });
}

/** Sessions, timed benefits and accesses ending soon: the sessions page and the dashboard share it. */
export function useLiveOverview(): ReadState<LiveOverview> {
  return readState(useQuery(liveOverviewQueryOptions()));
}

/**
 * Creates (`id` null) or edits a session; answers its id. The database says its own refusals
 * (22023) as sentences for staff; a moved start is mailed to the holders by the database.
 */
export async function saveLiveSession(id: string | null, data: SessionFormData): Promise<string> {
  const saved = await callStaffRpc('staff_save_live_session', {
    p_id: sqlNull(id),
    p_benefit: data.benefit,
    p_title: data.title,
    p_starts_at: data.startsAt,
    p_minutes: data.minutes,
    p_join_url: data.joinUrl,
    p_description: data.description,
    // Empty is stored as none (the database trims and nulls it).
    p_recording_path: data.recordingPath,
  });
  return String(saved);
}

export async function cancelLiveSession(id: string): Promise<void> {
  await callStaffRpc('staff_cancel_live_session', { p_id: id });
}

export async function saveTimedBenefit(benefit: string, data: BenefitFormData): Promise<void> {
  await callStaffRpc('staff_save_timed_benefit', {
    p_benefit: benefit,
    p_length_days: data.lengthDays,
    p_link: data.link,
  });
}

/** After any change of the sessions or the catalog the overview is read again. */
function useOverviewMutation<V, R>(mutationFn: (variables: V) => Promise<R>, errorMessage: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys.overview }),
    meta: { errorMessage },
  });
}

export function useSaveLiveSession() {
  return useOverviewMutation(
    ({ id, data }: { id: string | null; data: SessionFormData }) => saveLiveSession(id, data),
    'Could not save the live session',
  );
}

export function useCancelLiveSession() {
  return useOverviewMutation((id: string) => cancelLiveSession(id), 'Could not cancel the live session');
}

export function useSaveTimedBenefit() {
  return useOverviewMutation(
    ({ benefit, data }: { benefit: string; data: BenefitFormData }) => saveTimedBenefit(benefit, data),
    'Could not save the benefit',
  );
}

export async function getMemberBenefits(userId: string): Promise<MemberBenefits> {
  return parseMemberBenefits(await callStaffRpc('staff_member_benefits', { p_user: userId }));
}

export function memberBenefitsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: liveKeys.member(userId),
    queryFn: () => getMemberBenefits(userId),
    retry: retryUnlessRefused,
    meta: { errorMessage: 'Could not read the member’s access' },
  });
}

export function useMemberBenefits(userId: string): ReadState<MemberBenefits> {
  return readState(useQuery(memberBenefitsQueryOptions(userId)));
}

/**
 * Extends or ends a member's benefit with a reason; answers its new end. The database's refusal
 * of a blank reason (22023) is said as the form says it.
 */
export async function changeBenefit(userId: string, change: BenefitChangeData): Promise<string> {
  try {
    const ends = await callStaffRpc('staff_change_benefit', {
      p_user: userId,
      p_benefit: change.benefit,
      p_action: change.action,
      p_days: sqlNull(change.days),
      p_reason: change.reason,
    });
    return String(ends);
  } catch (caught) {
    if (caught instanceof StaffRpcError && caught.message === 'a reason is required') {
      throw new StaffRpcError(REASON_REQUIRED, caught.code);
    }
    throw caught;
  }
}

/** The member's access and its audit are read again, and the overview (its "ending this week"). */
export function useChangeBenefit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, change }: { userId: string; change: BenefitChangeData }) => changeBenefit(userId, change),
    onSettled: (_ends, _error, { userId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: liveKeys.member(userId) }),
        queryClient.invalidateQueries({ queryKey: liveKeys.overview }),
      ]),
    meta: { errorMessage: 'Could not change the member’s access' },
  });
}
