import { queryOptions, useQuery } from '@tanstack/react-query';
import { readState, type ReadState } from '@/lib/read-state';
import { parseMemberDetail, type MemberDetail } from '../lib/members';
import { memberKeys, retryUnlessRefused } from './list-members';
import { callStaffRpc } from './staff-rpc';

/** A member's tier and its source, purchases, grants and history; null: no such user (any more). */
export async function getMemberDetail(userId: string): Promise<MemberDetail | null> {
  const data = await callStaffRpc('staff_member_detail', { target_user: userId });
  return data === null ? null : parseMemberDetail(data);
}

export function memberDetailQueryOptions(userId: string) {
  return queryOptions({
    queryKey: memberKeys.detail(userId),
    queryFn: () => getMemberDetail(userId),
    retry: retryUnlessRefused,
    meta: { errorMessage: 'Could not read the member' },
  });
}

export function useMemberDetail(userId: string): ReadState<MemberDetail | null> {
  return readState(useQuery(memberDetailQueryOptions(userId)));
}
