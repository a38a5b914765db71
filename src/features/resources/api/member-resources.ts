import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { resourceCards, resourceFolder } from '@/content/resources';
import { isTier, isUnlocked, type Tier } from '@/content/tiers';
import { userTierQueryOptions } from '@/features/tiers';
import { parseEnv } from '@/config/env';
import { preflight } from '@/lib/preflight';
import { supabase } from '@/lib/supabase';
import type { StorageEntry } from '../lib/resource-files';
import { folderFiles, resourceFilesQueryOptions } from './list-resource-files';

/** What /resources needs of the member, in one answer: their tier and each open folder's entries. */
export type MemberResources = { tier: Tier | null; folders: ReadonlyMap<string, StorageEntry[]> };

/**
 * Reads the member's tier and the files their tier opens in one request (the database's
 * `member_resources()`, under the storage policies, as the list route), and groups the files
 * by folder (`{tier}/{slug}`), each entry named within its folder as a listing names it.
 * With `accessToken` (a session just started), the request goes out at once with it, not
 * after supabase-js has read the session back from storage under its lock.
 */
export async function getMemberResources(accessToken?: string): Promise<MemberResources> {
  return groupByFolder(accessToken ? await rpcWithToken(accessToken) : await rpcWithSession());
}

async function rpcWithSession(): Promise<unknown> {
  const { data, error } = await supabase.rpc('member_resources').retry(false);
  if (error) throw error;
  return data;
}

/** POST /rest/v1/rpc/member_resources as supabase-js sends it, with the given access token. */
function memberResourcesRequest(
  accessToken: string,
): [url: string, init: RequestInit & { headers: Record<string, string> }] {
  const { VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY } = parseEnv(import.meta.env);
  return [
    `${VITE_SUPABASE_URL.replace(/\/+$/, '')}/rest/v1/rpc/member_resources`,
    {
      method: 'POST',
      headers: {
        apikey: VITE_SUPABASE_ANON_KEY,
        Authorization: `Bearer ${accessToken}`,
        'Content-Type': 'application/json',
      },
      body: '{}',
    },
  ];
}

/**
 * Asks ahead for the one read's CORS preflight (src/lib/preflight.ts), while the member is still
 * at the sign-in form: the read then goes out the moment the sign-in answers.
 */
export function preflightMemberResources(): void {
  const { VITE_SUPABASE_ANON_KEY } = parseEnv(import.meta.env);
  const [url, { headers }] = memberResourcesRequest(VITE_SUPABASE_ANON_KEY);
  preflight(url, headers);
}

async function rpcWithToken(accessToken: string): Promise<unknown> {
  const response = await fetch(...memberResourcesRequest(accessToken));
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  if (!response.ok) {
    const message = typeof body?.message === 'string' ? body.message : `status ${response.status}`;
    throw new Error(`Could not read your resources: ${message}`);
  }
  return body;
}

export function groupByFolder(data: unknown): MemberResources {
  const answer = data as { tier?: unknown; files?: unknown } | null;
  if (!answer || !Array.isArray(answer.files)) throw new Error('The resources answer has no file list');
  const folders = new Map<string, StorageEntry[]>();
  for (const file of answer.files as (StorageEntry & { name: unknown })[]) {
    if (typeof file.name !== 'string') continue;
    const slash = file.name.lastIndexOf('/');
    const folder = file.name.slice(0, slash);
    const entries = folders.get(folder) ?? [];
    entries.push({ ...file, name: file.name.slice(slash + 1) });
    folders.set(folder, entries);
  }
  return { tier: isTier(answer.tier) ? answer.tier : null, folders };
}

/** The one read; fetched afresh on each first visit (its parts live on in their own queries). */
export function memberResourcesQueryOptions(userId: string, accessToken?: string) {
  return queryOptions({
    queryKey: ['resources', 'member', userId] as const,
    queryFn: () => getMemberResources(accessToken),
    staleTime: 0,
    gcTime: 0,
    meta: { errorMessage: 'Could not read your resources' },
  });
}

/**
 * Fills the cache /resources reads from: the member's tier, and each card their tier opens
 * with its files (an empty folder too). Locked cards are left out, so a card opened later
 * (an upgrade seen live) lists its folder afresh.
 */
export function fillCache(client: QueryClient, userId: string, { tier, folders }: MemberResources) {
  client.setQueryData(userTierQueryOptions(userId).queryKey, tier);
  for (const card of resourceCards) {
    if (!isUnlocked(tier, card.tier)) continue;
    const folder = resourceFolder(card);
    client.setQueryData(
      resourceFilesQueryOptions(folder, userId).queryKey,
      folderFiles(folder, folders.get(folder) ?? []),
    );
  }
}

/**
 * Gets /resources' data into the cache before the page shows, in one request when the cache
 * has nothing for this member yet (a sign-in, a reload), else from what it holds (the tier and
 * the open cards' lists, read again only if gone). Never throws: a failed read is left to the
 * page, whose own queries read the tier and the lists and show "could not load" with a retry.
 * See docs/decisions/086-resources-in-one-read.md.
 */
export async function loadMemberResources(client: QueryClient, userId: string, accessToken?: string): Promise<void> {
  try {
    const tier = client.getQueryData(userTierQueryOptions(userId).queryKey);
    if (tier === undefined) {
      fillCache(
        client,
        userId,
        await client.fetchQuery({ ...memberResourcesQueryOptions(userId, accessToken), retry: false }),
      );
      return;
    }
    const open = resourceCards.filter((card) => isUnlocked(tier, card.tier));
    await Promise.all([
      client.ensureQueryData({ ...userTierQueryOptions(userId), retry: false }),
      ...open.map((card) =>
        client.ensureQueryData({ ...resourceFilesQueryOptions(resourceFolder(card), userId), retry: false }),
      ),
    ]);
  } catch {
    // Shown by the page, logged by the cache.
  }
}
