// POST …/functions/v1/download/expire: the scheduled removal of stamped copies nobody has
// downloaded for 90 days. Supabase Cron calls it daily with the service-role key (migration
// 20261128020000); the stand-in's timer calls the same URL. The database names the copies
// (stamped_copies_to_expire), Storage removes them: a row of storage.objects deleted in SQL would
// leave its bytes behind, and Storage refuses that delete anyway. The member's next download
// stamps the file again (copy.ts). See docs/decisions/096-stamped-copies-expire.md.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { sameSecret } from '../_shared/same-secret.ts';
import { STAMPED_BUCKET } from './copy.ts';
import { json } from './http.ts';

/** A copy not downloaded for this long is removed. */
export const EXPIRE_AFTER_DAYS = 90;

/** Copies per round: Storage removes at most 1,000 objects per request. */
export const EXPIRE_BATCH = 1000;

/** Rounds per run; what is left waits for the next day's run. */
export const EXPIRE_MAX_ROUNDS = 50;

export type ExpireOptions = {
  /** The service-role client. */
  admin: SupabaseClient;
  /** The bearer the scheduled run must send: the project's service-role key. */
  serviceRoleKey: string;
  now?: () => Date;
  log?: (entry: { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>) => void;
  batch?: number;
  maxRounds?: number;
};

/** Whether the request is for the expire route (`…/download/expire`). */
export function isExpireRequest(req: Request): boolean {
  return new URL(req.url).pathname.split('/').filter(Boolean).pop() === 'expire';
}

type Run = { removed: number; rounds: number; more: boolean };

/** Asks for a batch of expired copies and removes it, until none is left or the rounds run out. */
async function removeExpired(options: ExpireOptions, before: Date): Promise<Run> {
  const batch = options.batch ?? EXPIRE_BATCH;
  const maxRounds = options.maxRounds ?? EXPIRE_MAX_ROUNDS;
  const bucket = options.admin.storage.from(STAMPED_BUCKET);
  let removed = 0;
  for (let round = 1; round <= maxRounds; round++) {
    const { data, error } = await options.admin.rpc('stamped_copies_to_expire', {
      p_before: before.toISOString(),
      p_limit: batch,
    });
    if (error) throw new Error(`stamped_copies_to_expire: ${error.message}`);
    const names = ((data ?? []) as { name: string }[]).map((row) => row.name);
    if (names.length === 0) return { removed, rounds: round - 1, more: false };
    const gone = await bucket.remove(names);
    if (gone.error) throw new Error(`remove from ${STAMPED_BUCKET}: ${gone.error.message}`);
    // Storage removed none of what the database named: asking again would name them again.
    if (gone.data.length === 0) throw new Error(`${STAMPED_BUCKET}: ${names.length} expired copies not removed`);
    removed += gone.data.length;
    if (names.length < batch) return { removed, rounds: round, more: false };
  }
  return { removed, rounds: maxRounds, more: true };
}

/** The expire route: the service role only (401 for anyone else), POST only. */
export function createExpireHandler(options: ExpireOptions): (req: Request) => Promise<Response> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  return async (req) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
    if (!sameSecret(bearer, options.serviceRoleKey)) {
      return json(401, { error: 'service_role_only', message: 'Only the scheduled run may expire copies.' });
    }
    if (req.method !== 'POST') return json(405, { error: 'method_not_allowed', message: 'Use POST.' });
    await req.body?.cancel();
    const before = new Date(now().getTime() - EXPIRE_AFTER_DAYS * 86_400_000);
    try {
      const run = await removeExpired(options, before);
      log({ level: 'info', message: 'stamped copies expired', before: before.toISOString(), ...run });
      return json(200, { ok: true, before: before.toISOString(), ...run });
    } catch (error) {
      log({ level: 'error', message: 'expiring stamped copies failed', error: String(error) });
      return json(500, { error: 'internal', message: 'The expiry stopped; the next run carries on.' });
    }
  };
}
