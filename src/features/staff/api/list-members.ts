import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { QUERY_RETRIES } from '@/lib/query-client';
import { readState, type ReadState } from '@/lib/read-state';
import { parseMembersPage, type MemberRow, type MembersPage } from '../lib/members';
import { callStaffRpc, isStaffRefusal } from './staff-rpc';

export const MEMBERS_PAGE_SIZE = 25;
/** The export reads this many a call (the function's most). */
const EXPORT_PAGE_SIZE = 1000;

export const memberKeys = {
  all: ['staff', 'members'] as const,
  list: (search: string, offset: number) => ['staff', 'members', 'list', { search, offset }] as const,
  detail: (userId: string) => ['staff', 'members', 'detail', userId] as const,
};

/** One page of members whose e-mail contains `search` (case-insensitive), by e-mail. */
export async function listMembers(search: string, offset: number, pageSize = MEMBERS_PAGE_SIZE): Promise<MembersPage> {
  const rows = await callStaffRpc('staff_list_members', { search, page_size: pageSize, page_offset: offset });
  return parseMembersPage(rows);
}

/** Retries a failed read, except the database's "not staff": asking again cannot change that. */
export function retryUnlessRefused(failureCount: number, error: Error): boolean {
  return !isStaffRefusal(error) && failureCount < QUERY_RETRIES;
}

export function membersQueryOptions(search: string, offset: number) {
  return queryOptions({
    queryKey: memberKeys.list(search, offset),
    queryFn: () => listMembers(search, offset),
    retry: retryUnlessRefused,
    meta: { errorMessage: 'Could not list members' },
  });
}

/** The page of members; while the next page loads, the last one stays on screen. */
export function useMembers(search: string, offset: number): ReadState<MembersPage> {
  return readState(useQuery({ ...membersQueryOptions(search, offset), placeholderData: keepPreviousData }));
}

/**
 * Every member the search matches, all pages, for the export. Stops at the total the first
 * page reported, or at a short page (members removed while it reads).
 */
export async function listAllMembers(search: string): Promise<MemberRow[]> {
  const all: MemberRow[] = [];
  for (;;) {
    const { members, total } = await listMembers(search, all.length, EXPORT_PAGE_SIZE);
    all.push(...members);
    if (members.length < EXPORT_PAGE_SIZE || all.length >= total) return all;
  }
}
