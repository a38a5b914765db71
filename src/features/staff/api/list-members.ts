import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { QUERY_RETRIES } from '@/lib/query-client';
import { readState, type ReadState } from '@/lib/read-state';
import { parseExportPage, parseMembersPage, type ExportRow, type MemberRow, type MembersPage } from '../lib/members';
import { readAllPages } from '../lib/members-export';
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
 * Every member the search matches, all pages, for the export: keyset pages (each starts after
 * the last row of the one before), so each costs what the first does. See
 * docs/decisions/082-staff-pages-at-scale.md.
 */
export async function listAllMembers(search: string): Promise<MemberRow[]> {
  const rows = await readAllPages<ExportRow>(async (after) => {
    const page = await callStaffRpc('staff_export_members', {
      search,
      after_email: after?.emailKey ?? undefined,
      after_id: after?.userId,
      page_size: EXPORT_PAGE_SIZE,
    });
    return parseExportPage(page);
  }, EXPORT_PAGE_SIZE);
  return rows.map(({ emailKey: _key, ...member }) => member);
}
