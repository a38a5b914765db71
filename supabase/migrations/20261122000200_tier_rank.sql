-- Tiers and their order. The same order lives in src/content/tiers.ts; the database tests
-- check that the two agree.

/** The four subscription tiers, lowest first (enum order = rank order). */
create type public.tier as enum ('ebook', 'foundation', 'accelerated', 'complete');

comment on type public.tier is 'Subscription tier, lowest to highest: ebook, foundation, accelerated, complete.';

/**
 * tier_rank(text): ebook 0, foundation 1, accelerated 2, complete 3; null for null or any
 * other text, so a policy comparing ranks refuses unknown tiers (e.g. a bogus folder name).
 */
create function public.tier_rank(tier text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case tier
    when 'ebook' then 0
    when 'foundation' then 1
    when 'accelerated' then 2
    when 'complete' then 3
  end
$$;

comment on function public.tier_rank(text) is
  'Rank of a tier name: ebook 0, foundation 1, accelerated 2, complete 3; null when unknown.';

-- Harmless and needed by storage policies, which run as the caller.
revoke execute on function public.tier_rank(text) from public, anon, authenticated;
grant execute on function public.tier_rank(text) to anon, authenticated, service_role;
