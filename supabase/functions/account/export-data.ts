// GET …/account/export: the caller's own data as one JSON file, read with their own token.
import { caller, type AccountContext } from './context.ts';
import { json } from './http.ts';

export async function exportData(ctx: AccountContext, req: Request): Promise<Response> {
  const { user, client } = await caller(ctx, req);
  // Every read carries the member's own token: row level security decides, and the filters
  // on their id keep a staff member's export to their own rows too.
  const [profile, tier, purchases, downloads, places, preferences, benefits] = await Promise.all([
    client.from('profiles').select('display_name, avatar_url, created_at, updated_at').eq('id', user.id).maybeSingle(),
    client.from('user_tiers').select('tier, updated_at').eq('user_id', user.id).maybeSingle(),
    client
      .from('purchases')
      .select('provider, order_id, product, tier, amount_cents, currency, status, email, created_at, refunded_at')
      .eq('user_id', user.id)
      .order('created_at', { ascending: true }),
    client
      .from('download_log')
      .select('file_name, file_version, downloaded_at, ip, user_agent')
      .eq('user_id', user.id)
      .order('downloaded_at', { ascending: true }),
    client
      .from('media_progress')
      .select('file_name, position_seconds, duration_seconds, finished_at, updated_at')
      .eq('user_id', user.id)
      .order('file_name', { ascending: true }),
    client.from('member_preferences').select('playback_rate, updated_at').eq('user_id', user.id).maybeSingle(),
    client
      .from('member_benefits')
      .select('benefit, starts_at, ends_at')
      .eq('user_id', user.id)
      .order('benefit', { ascending: true }),
  ]);
  for (const read of [profile, tier, purchases, downloads, places, preferences, benefits]) {
    if (read.error) throw new Error(`export read failed: ${read.error.message}`);
  }
  const held = (tier.data?.tier as string | null | undefined) ?? null;
  const paid = (purchases.data ?? []).some((p) => p.status === 'paid' && p.tier === held);
  const body = {
    exported_at: ctx.now().toISOString(),
    account: {
      id: user.id,
      email: user.email ?? null,
      signed_up_at: user.created_at,
      email_confirmed_at: user.email_confirmed_at ?? null,
      last_sign_in_at: user.last_sign_in_at ?? null,
    },
    profile: profile.data ?? null,
    tier: {
      tier: held,
      // A member cannot read staff grants; a tier no paid purchase explains was granted by staff.
      source: held === null ? null : paid ? 'purchase' : 'staff_grant',
      since: tier.data?.updated_at ?? null,
    },
    purchases: purchases.data ?? [],
    // Every paid file downloaded, with the address and browser it was logged with.
    downloads: downloads.data ?? [],
    // Where they stopped in each audio and video file, and the speed they play at.
    listening_and_watching: places.data ?? [],
    player: preferences.data ?? null,
    // The community, circle and Q&A access their bundle includes, and when each ends.
    access_with_end_dates: benefits.data ?? [],
  };
  const day = ctx.now().toISOString().slice(0, 10);
  return json(200, body, { 'Content-Disposition': `attachment; filename="yes-you-can-my-data-${day}.json"` });
}
