-- Counting visits with no cookies: how many people saw the public pages, the bundles, clicked a
-- checkout link, and where they came from, with nothing stored that identifies a person.
--
-- * public.count_visits (service_role: the count function) writes a batch of raw counts. A visitor is
--   sha256(the day's salt ‖ address ‖ user agent ‖ site): a new random salt each owner's day,
--   deleted when the day ends, so a visitor is known within one day only and the address and
--   user agent are never stored. An address may make 120 counts a minute (visit_limits, keyed on
--   sha256(salt ‖ address), rows kept 2 minutes).
-- * A count's attribution (source, medium, campaign, referrer) is resolved when it is written:
--   its own source or campaign; else the same visitor's latest count that day that had one;
--   else its own referrer; else direct / unknown (all null). visit_visitors keeps each
--   visitor-day's attribution as the counts arrive (the inherited one, and whether it saw the
--   bundles), so neither count_visits nor the dashboard's today sorts the raw counts.
-- * private.roll_up_visits (pg_cron hourly; the stand-in's local cron) rolls every ended day into
--   visit_days (counts and visitors per group) and visit_day_visitors (each visitor-day once,
--   under its attribution), keeps raw counts 30 days, drops ended days' salts and old limits.
-- * public.staff_visits(days) (staff): the funnel, by campaign and by referrer (sales from
--   purchase_campaigns, which the purchase webhook fills through record_purchase_campaign), and
--   visitors per day over 90 days; from the roll-up for rolled days and raw counts for the rest.
-- Days are the owner's (public.owner_settings.time_zone).

-- ---------------------------------------------------------------------------------------------
-- Tables

create table private.visit_salts (
  day date primary key,
  salt bytea not null check (octet_length(salt) = 32)
);

comment on table private.visit_salts is
  'One random salt per owner''s day for the visitor hashes; a day''s salt is deleted when the day ends (count_visits, roll_up_visits).';

create table private.visit_events (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  day date not null,
  kind text not null check (kind in ('view', 'checkout', 'play', 'return')),
  page text not null check (page in ('/', '/bundles', '/upgrade', '/privacy', '/auth')),
  visitor bytea not null check (octet_length(visitor) = 32),
  source text check (char_length(source) between 1 and 100),
  medium text check (char_length(medium) between 1 and 100),
  campaign text check (char_length(campaign) between 1 and 100),
  referrer text check (char_length(referrer) between 1 and 253),
  device text not null check (device in ('phone', 'tablet', 'desktop')),
  bundle public.tier,
  constraint visit_events_bundle_on_checkout check (bundle is null or kind = 'checkout')
);

comment on table private.visit_events is
  'Raw visit counts (count_visits), kept 30 days. visitor is a hash that changes every day; no address or user agent is stored.';
comment on column private.visit_events.day is 'The owner''s day the count was made.';
comment on column private.visit_events.visitor is 'sha256(day''s salt ‖ address ‖ user agent ‖ site): the same visitor within one day only.';
comment on column private.visit_events.source is 'Resolved attribution (utm_source) when the count was written.';
comment on column private.visit_events.referrer is 'The referring site''s host name, or the inherited one; null: direct / unknown.';
comment on column private.visit_events.bundle is 'The tier a checkout link sells (checkout counts only).';

create index visit_events_day_idx on private.visit_events (day);
comment on index private.visit_events_day_idx is 'A day''s counts: the roll-up, the dashboard''s days not rolled up yet, the 30-day drop.';
create index visit_events_day_visitor_idx on private.visit_events (day, visitor);
comment on index private.visit_events_day_visitor_idx is 'A visitor''s counts of a day.';
create index visit_events_day_other_idx on private.visit_events (day) include (kind, source, medium, campaign, referrer)
  where kind <> 'view';
comment on index private.visit_events_day_other_idx is 'A day''s checkout clicks, plays and returns (staff_visits), without its page views.';

create table private.visit_visitors (
  day date not null,
  visitor bytea not null check (octet_length(visitor) = 32),
  source text,
  medium text,
  campaign text,
  referrer text,
  device text not null,
  saw_bundles boolean not null,
  primary key (day, visitor)
);

comment on table private.visit_visitors is
  'Each visitor-day of the raw counts (count_visits), kept as long as they are: its attribution (latest count with a source or campaign, else latest with a referrer) and whether it viewed /bundles.';

create table private.visit_limits (
  address bytea not null,
  minute timestamptz not null,
  n integer not null check (n >= 1),
  primary key (address, minute)
);

comment on table private.visit_limits is
  'Counts per address and minute (address = sha256(day''s salt ‖ address)), for the cap of 120 a minute; rows older than 2 minutes are deleted.';
create index visit_limits_minute_idx on private.visit_limits (minute);
comment on index private.visit_limits_minute_idx is 'Finds the rows past their two minutes.';

create table private.visit_days (
  day date not null,
  kind text not null,
  page text not null,
  source text,
  medium text,
  campaign text,
  referrer text,
  device text not null,
  bundle public.tier,
  events bigint not null check (events >= 1),
  visitors bigint not null check (visitors >= 1)
);

comment on table private.visit_days is
  'Rolled-up counts of ended days: per day, kind, page, attribution, device and bundle, the counts and distinct visitors.';
create index visit_days_day_idx on private.visit_days (day);
comment on index private.visit_days_day_idx is 'A day''s rows (the roll-up replaces them).';
create index visit_days_day_other_idx on private.visit_days (day) include (kind, source, medium, campaign, referrer, events)
  where kind <> 'view';
comment on index private.visit_days_day_other_idx is 'A period''s checkout clicks, plays and returns (staff_visits), without the page views.';

create table private.visit_day_visitors (
  day date not null,
  source text,
  medium text,
  campaign text,
  referrer text,
  device text not null,
  visitors bigint not null check (visitors >= 1),
  bundle_viewers bigint not null check (bundle_viewers between 0 and visitors)
);

comment on table private.visit_day_visitors is
  'Rolled-up visitor-days of ended days: each visitor once a day, under its attribution (latest with a source or campaign, else latest with a referrer); bundle_viewers = those who viewed /bundles.';
create index visit_day_visitors_day_idx on private.visit_day_visitors (day)
  include (source, medium, campaign, referrer, visitors, bundle_viewers);
comment on index private.visit_day_visitors_day_idx is 'A period''s visitors by attribution and the 90-day chart (staff_visits).';

create table private.visit_rollup_state (
  id boolean primary key default true check (id),
  last_day date not null
);

comment on table private.visit_rollup_state is 'One row: the last owner''s day rolled up into visit_days and visit_day_visitors.';

/** The sale's campaign, as the purchase webhook read it from the checkout (service_role). */
create table public.purchase_campaigns (
  purchase_id uuid primary key references public.purchases (id) on delete cascade,
  source text check (char_length(source) between 1 and 100),
  medium text check (char_length(medium) between 1 and 100),
  campaign text check (char_length(campaign) between 1 and 100),
  referrer text check (char_length(referrer) between 1 and 253),
  created_at timestamptz not null default now()
);

comment on table public.purchase_campaigns is
  'The campaign a sale came from (utm codes and referrer host the checkout carried). Written only by the purchase webhook (service_role, record_purchase_campaign); staff read it.';

-- Row level security: the private tables are for the functions below only; staff read the
-- campaigns of sales.
do $$
declare
  t text;
begin
  foreach t in array array['visit_salts', 'visit_events', 'visit_visitors', 'visit_limits', 'visit_days', 'visit_day_visitors',
                           'visit_rollup_state'] loop
    execute format('alter table private.%I enable row level security', t);
    execute format('revoke all on table private.%I from public, anon, authenticated, service_role', t);
    execute format('create policy "No API access" on private.%I as restrictive for all to anon, authenticated
                    using (false) with check (false)', t);
    execute format('comment on policy "No API access" on private.%I is %L', t,
                   'Deny-all for anon and authenticated: only the visit functions read and write it.');
  end loop;
end
$$;

alter table public.purchase_campaigns enable row level security;
revoke all on table public.purchase_campaigns from public, anon, authenticated, service_role;
grant select on table public.purchase_campaigns to authenticated;
grant select on table public.purchase_campaigns to service_role;

create policy "Staff read purchase campaigns"
  on public.purchase_campaigns for select
  to authenticated
  using ((select private.is_staff()));

comment on policy "Staff read purchase campaigns" on public.purchase_campaigns is
  'select: staff only. No client role writes (no grant); the webhook writes through record_purchase_campaign.';

-- ---------------------------------------------------------------------------------------------
-- Helpers

/** The owner's time zone (owner_settings; UTC when unset). */
create function private.owner_time_zone()
returns text
language sql
stable
set search_path = ''
as $$
  select coalesce((select s.time_zone from public.owner_settings s), 'UTC')
$$;

comment on function private.owner_time_zone() is 'The owner''s time zone (public.owner_settings), UTC when none.';
revoke execute on function private.owner_time_zone() from public, anon, authenticated, service_role;

/** p trimmed and lower-cased, null when empty; 22023 when longer than p_max. */
create function private.visit_code(p text, p_name text, p_max integer)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v text := nullif(lower(btrim(p)), '');
begin
  if char_length(v) > p_max then
    raise exception '% is longer than % characters', p_name, p_max using errcode = '22023';
  end if;
  return v;
end
$$;

comment on function private.visit_code(text, text, integer) is
  'An attribution code cleaned: trimmed, lower-cased, null when empty; 22023 when over p_max characters.';
revoke execute on function private.visit_code(text, text, integer) from public, anon, authenticated, service_role;

/** The visitor-days of days p_from..p_to (visit_visitors) per attribution and device. */
create function private.visitor_days_of(p_from date, p_to date)
returns table (day date, source text, medium text, campaign text, referrer text, device text, visitors bigint,
  bundle_viewers bigint)
language sql
stable
set search_path = ''
as $$
  select v.day, v.source, v.medium, v.campaign, v.referrer, v.device, count(*), count(*) filter (where v.saw_bundles)
  from private.visit_visitors v
  where v.day between p_from and p_to
  group by v.day, v.source, v.medium, v.campaign, v.referrer, v.device
$$;

comment on function private.visitor_days_of(date, date) is
  'Visitor-days of days p_from..p_to from the raw counts, per attribution and device, with how many viewed /bundles.';
revoke execute on function private.visitor_days_of(date, date) from public, anon, authenticated, service_role;

/** The raw counts of days p_from..p_to grouped as visit_days holds them. */
create function private.visit_groups_of(p_from date, p_to date)
returns table (day date, kind text, page text, source text, medium text, campaign text, referrer text, device text,
  bundle public.tier, events bigint, visitors bigint)
language sql
stable
set search_path = ''
as $$
  select e.day, e.kind, e.page, e.source, e.medium, e.campaign, e.referrer, e.device, e.bundle, count(*),
    count(distinct e.visitor)
  from private.visit_events e
  where e.day between p_from and p_to
  group by e.day, e.kind, e.page, e.source, e.medium, e.campaign, e.referrer, e.device, e.bundle
$$;

comment on function private.visit_groups_of(date, date) is
  'Raw counts of days p_from..p_to per day, kind, page, attribution, device and bundle: counts and distinct visitors.';
revoke execute on function private.visit_groups_of(date, date) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Counting

/** Today's salt, made when missing (deleting the salts of ended days). */
create function private.visit_salt(p_today date)
returns bytea
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_salt bytea;
begin
  select s.salt into v_salt from private.visit_salts s where s.day = p_today;
  if v_salt is null then
    insert into private.visit_salts (day, salt)
    values (p_today, uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
    on conflict (day) do nothing;
    delete from private.visit_salts s where s.day < p_today;
    select s.salt into v_salt from private.visit_salts s where s.day = p_today;
  end if;
  return v_salt;
end
$$;

comment on function private.visit_salt(date) is 'The salt of p_today, made when missing; deletes the salts of earlier days.';
revoke execute on function private.visit_salt(date) from public, anon, authenticated, service_role;

/**
 * Whether a visitor-day's attribution (p_source, p_campaign) gives way to a new count's: the new
 * one has a source or campaign, or the day has none and the new one has a referrer.
 */
create function private.visit_takes_over(p_source text, p_campaign text, p_new_source text, p_new_campaign text,
  p_new_referrer text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_new_source is not null or p_new_campaign is not null
    or (p_source is null and p_campaign is null and p_new_referrer is not null)
$$;

comment on function private.visit_takes_over(text, text, text, text, text) is
  'True when a new count''s attribution replaces the visitor-day''s: it has a source or campaign, or the day has none and it has a referrer.';
revoke execute on function private.visit_takes_over(text, text, text, text, text) from public, anon, authenticated, service_role;

/** What is wrong with one element of a count_visits batch, or null when it is a count. */
create function private.visit_count_problem(p jsonb)
returns text
language sql
stable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p) is distinct from 'object' then 'is not an object'
    when exists (select 1 from jsonb_each(p) f
                 where f.key <> all (array['kind', 'page', 'source', 'medium', 'campaign', 'referrer', 'bundle', 'device',
                                           'address', 'user_agent', 'site'])) then 'has an unknown key'
    when exists (select 1 from jsonb_each(p) f where jsonb_typeof(f.value) not in ('string', 'null')) then 'has a value that is not a string'
    when coalesce(p ->> 'kind', '') not in ('view', 'checkout', 'play', 'return') then 'has an unknown kind'
    when coalesce(p ->> 'page', '') not in ('/', '/bundles', '/upgrade', '/privacy', '/auth') then 'has an unknown page'
    when coalesce(p ->> 'device', '') not in ('phone', 'tablet', 'desktop') then 'has an unknown device'
    when p ->> 'bundle' is not null and (p ->> 'bundle') <> all (enum_range(null::public.tier)::text[]) then 'has an unknown bundle'
    when p ->> 'bundle' is not null and p ->> 'kind' <> 'checkout' then 'has a bundle but is not a checkout'
    when char_length(btrim(p ->> 'source')) > 100 then 'has a source longer than 100 characters'
    when char_length(btrim(p ->> 'medium')) > 100 then 'has a medium longer than 100 characters'
    when char_length(btrim(p ->> 'campaign')) > 100 then 'has a campaign longer than 100 characters'
    when char_length(btrim(p ->> 'referrer')) > 253 then 'has a referrer longer than 253 characters'
  end
$$;

comment on function private.visit_count_problem(jsonb) is
  'Why one element of a count_visits batch is not a count (not an object, unknown key, non-string value, unknown kind, page, device or bundle, a bundle off a checkout, a code too long), or null.';
revoke execute on function private.visit_count_problem(jsonb) from public, anon, authenticated, service_role;

/**
 * For the count function (service_role): a batch of counts in the order given, in one
 * transaction. Every element is checked first (22023 names the first bad one; nothing is
 * written). Then, set-based: today's salt; each address's counts this minute (visit_limits)
 * raised by its counts in the batch, and those past the 120th dropped; each kept count's
 * attribution (its own source or campaign; else the latest earlier one of the same visitor in the
 * batch; else the visitor-day's from before the batch; else its own referrer); the kept counts
 * inserted in order; each visitor-day updated once, as the counts one by one would leave it.
 */
create function private.count_visits(p_counts jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_today date := (now() at time zone private.owner_time_zone())::date;
  v_minute timestamptz := date_trunc('minute', now());
  v_salt bytea;
  v_bad record;
  v_counted bigint;
begin
  if jsonb_typeof(p_counts) is distinct from 'array' then
    raise exception 'p_counts must be a JSON array' using errcode = '22023';
  elsif jsonb_array_length(p_counts) > 500 then
    raise exception 'at most 500 counts a call, not %', jsonb_array_length(p_counts) using errcode = '22023';
  end if;
  select c.i, private.visit_count_problem(c.e) as problem into v_bad
  from jsonb_array_elements(p_counts) with ordinality c (e, i)
  where private.visit_count_problem(c.e) is not null
  order by c.i limit 1;
  if found then
    raise exception 'count % %', v_bad.i, v_bad.problem using errcode = '22023';
  end if;
  if jsonb_array_length(p_counts) = 0 then
    return jsonb_build_object('counted', 0, 'dropped', 0);
  end if;
  v_salt := private.visit_salt(v_today);
  delete from private.visit_limits l where l.minute < v_minute - interval '2 minutes';
  with input as (
    select c.i, c.e ->> 'kind' as kind, c.e ->> 'page' as page, c.e ->> 'device' as device,
      (c.e ->> 'bundle')::public.tier as bundle,
      nullif(lower(btrim(c.e ->> 'source')), '') as source, nullif(lower(btrim(c.e ->> 'medium')), '') as medium,
      nullif(lower(btrim(c.e ->> 'campaign')), '') as campaign, nullif(lower(btrim(c.e ->> 'referrer')), '') as referrer,
      sha256(v_salt || convert_to(coalesce(c.e ->> 'address', ''), 'UTF8')) as address,
      sha256(v_salt || convert_to(coalesce(c.e ->> 'address', '') || E'\n' || coalesce(c.e ->> 'user_agent', '') || E'\n'
                                  || coalesce(c.e ->> 'site', ''), 'UTF8')) as visitor
    from jsonb_array_elements(p_counts) with ordinality c (e, i)
  ),
  limits as (
    insert into private.visit_limits as l (address, minute, n)
    select i.address, v_minute, count(*) from input i group by i.address
    on conflict (address, minute) do update set n = l.n + excluded.n
    returning l.address, l.n
  ),
  kept as (
    -- A count is kept when the address's counts this minute, up to and including it, are at most 120.
    select i.*,
      max(i.i) filter (where i.source is not null or i.campaign is not null)
        over (partition by i.visitor order by i.i) as attributed_by
    from (select i.*, row_number() over (partition by i.address order by i.i) as nth,
            count(*) over (partition by i.address) as of_address
          from input i) i
    join limits l on l.address = i.address
    where l.n - i.of_address + i.nth <= 120
  ),
  resolved as (
    select k.i, k.kind, k.page, k.device, k.bundle, k.visitor,
      case when b.i is not null then b.source when d.visitor is not null then d.source end as source,
      case when b.i is not null then b.medium when d.visitor is not null then d.medium end as medium,
      case when b.i is not null then b.campaign when d.visitor is not null then d.campaign end as campaign,
      case when b.i is not null then b.referrer when d.visitor is not null then d.referrer else k.referrer end as referrer
    from kept k
    left join kept b on b.i = k.attributed_by
    left join private.visit_visitors d
      on d.day = v_today and d.visitor = k.visitor and (d.source is not null or d.campaign is not null)
  ),
  events as (
    insert into private.visit_events (day, kind, page, visitor, source, medium, campaign, referrer, device, bundle)
    select v_today, r.kind, r.page, r.visitor, r.source, r.medium, r.campaign, r.referrer, r.device, r.bundle
    from resolved r order by r.i
    returning 1
  ),
  days as (
    -- Per visitor: the attribution the last of its counts that takes over leaves (the latest with
    -- a source or campaign, else the latest with a referrer; all null when none does), the device
    -- of its first count, and whether one was a view of /bundles.
    select distinct on (r.visitor) r.visitor, r.source, r.medium, r.campaign, r.referrer,
      first_value(r.device) over (partition by r.visitor order by r.i) as device,
      bool_or(r.kind = 'view' and r.page = '/bundles') over (partition by r.visitor) as saw_bundles
    from resolved r
    order by r.visitor, (r.source is not null or r.campaign is not null) desc, (r.referrer is not null) desc, r.i desc
  ),
  visitors as (
    insert into private.visit_visitors as v (day, visitor, source, medium, campaign, referrer, device, saw_bundles)
    select v_today, d.visitor, d.source, d.medium, d.campaign, d.referrer, d.device, d.saw_bundles from days d
    on conflict (day, visitor) do update
      set source = case when private.visit_takes_over(v.source, v.campaign, excluded.source, excluded.campaign, excluded.referrer)
                        then excluded.source else v.source end,
          medium = case when private.visit_takes_over(v.source, v.campaign, excluded.source, excluded.campaign, excluded.referrer)
                        then excluded.medium else v.medium end,
          campaign = case when private.visit_takes_over(v.source, v.campaign, excluded.source, excluded.campaign, excluded.referrer)
                          then excluded.campaign else v.campaign end,
          referrer = case when private.visit_takes_over(v.source, v.campaign, excluded.source, excluded.campaign, excluded.referrer)
                          then excluded.referrer else v.referrer end,
          saw_bundles = v.saw_bundles or excluded.saw_bundles
    returning 1
  )
  select count(*) from events into v_counted;
  return jsonb_build_object('counted', v_counted, 'dropped', jsonb_array_length(p_counts) - v_counted);
end
$$;

comment on function private.count_visits(jsonb) is
  'service_role only: a batch of up to 500 visit counts applied in order (hashed visitors, resolved attribution, 120 a minute per address: the rest dropped); 22023 and nothing written when an element is bad. Called by public.count_visits().';
revoke execute on function private.count_visits(jsonb) from public, anon, authenticated;
grant execute on function private.count_visits(jsonb) to service_role;

create function public.count_visits(p_counts jsonb)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.count_visits(p_counts)
$$;

comment on function public.count_visits(jsonb) is
  'service_role only (the count function): up to 500 counts [{kind, page, source, medium, campaign, referrer, bundle, device, address, user_agent, site}] in order, in one transaction; answers {"counted": n, "dropped": m} (dropped: over 120 a minute per address); 22023 for more than 500 or a bad element, and then nothing is written. The address and user agent are hashed with a daily salt, never stored. Security invoker over private.count_visits().';
revoke execute on function public.count_visits(jsonb) from public, anon, authenticated;
grant execute on function public.count_visits(jsonb) to service_role;

/** For the purchase webhook (service_role): the campaign of the sale with that provider and order. */
create function private.record_purchase_campaign(p_provider text, p_order_id text, p_source text, p_medium text,
  p_campaign text, p_referrer text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_purchase uuid;
  v_source text := private.visit_code(p_source, 'source', 100);
  v_medium text := private.visit_code(p_medium, 'medium', 100);
  v_campaign text := private.visit_code(p_campaign, 'campaign', 100);
  v_referrer text := private.visit_code(p_referrer, 'referrer', 253);
begin
  select p.id into v_purchase from public.purchases p where p.provider = p_provider and p.order_id = p_order_id;
  if v_purchase is null then
    return false;
  end if;
  if v_source is null and v_campaign is null then
    v_medium := null;
  end if;
  insert into public.purchase_campaigns as c (purchase_id, source, medium, campaign, referrer)
  values (v_purchase, v_source, v_medium, v_campaign, v_referrer)
  on conflict (purchase_id) do update
    set source = excluded.source, medium = excluded.medium, campaign = excluded.campaign, referrer = excluded.referrer;
  return true;
end
$$;

comment on function private.record_purchase_campaign(text, text, text, text, text, text) is
  'service_role only: upserts the campaign of the purchase (provider, order id); false when there is no such purchase. Called by public.record_purchase_campaign().';
revoke execute on function private.record_purchase_campaign(text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function private.record_purchase_campaign(text, text, text, text, text, text) to service_role;

create function public.record_purchase_campaign(p_provider text, p_order_id text, p_source text, p_medium text,
  p_campaign text, p_referrer text)
returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.record_purchase_campaign(p_provider, p_order_id, p_source, p_medium, p_campaign, p_referrer)
$$;

comment on function public.record_purchase_campaign(text, text, text, text, text, text) is
  'service_role only (the purchase webhook): records the utm codes and referrer host a sale''s checkout carried; false when no purchase has that provider and order id. Security invoker over private.record_purchase_campaign().';
revoke execute on function public.record_purchase_campaign(text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.record_purchase_campaign(text, text, text, text, text, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- The roll-up

/**
 * Rolls every ended owner's day not rolled up yet (from the day after the last one rolled, or
 * the first raw count) into visit_days and visit_day_visitors, replacing any rows of those days;
 * then deletes raw counts older than 30 days of rolled days, the salts of ended days and the
 * rate limits older than 2 minutes. Run again, it rolls nothing twice.
 */
create function private.roll_up_visits()
returns jsonb
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_today date := (now() at time zone private.owner_time_zone())::date;
  v_from date;
  v_rolled integer := 0;
  v_events bigint;
  v_salts bigint;
  v_limits bigint;
begin
  perform pg_advisory_xact_lock(hashtext('private.roll_up_visits'));
  v_from := coalesce((select s.last_day + 1 from private.visit_rollup_state s),
                     (select min(e.day) from private.visit_events e));
  if v_from is not null and v_from < v_today then
    delete from private.visit_days d where d.day between v_from and v_today - 1;
    delete from private.visit_day_visitors d where d.day between v_from and v_today - 1;
    insert into private.visit_days (day, kind, page, source, medium, campaign, referrer, device, bundle, events, visitors)
    select * from private.visit_groups_of(v_from, v_today - 1);
    insert into private.visit_day_visitors (day, source, medium, campaign, referrer, device, visitors, bundle_viewers)
    select * from private.visitor_days_of(v_from, v_today - 1);
    insert into private.visit_rollup_state (id, last_day) values (true, v_today - 1)
    on conflict (id) do update set last_day = excluded.last_day;
    v_rolled := v_today - v_from;
  end if;
  delete from private.visit_events e
  where e.day < v_today - 30 and e.day <= (select s.last_day from private.visit_rollup_state s);
  get diagnostics v_events = row_count;
  delete from private.visit_visitors v
  where v.day < v_today - 30 and v.day <= (select s.last_day from private.visit_rollup_state s);
  delete from private.visit_salts s where s.day < v_today;
  get diagnostics v_salts = row_count;
  delete from private.visit_limits l where l.minute < date_trunc('minute', now()) - interval '2 minutes';
  get diagnostics v_limits = row_count;
  return jsonb_build_object('rolled_days', v_rolled, 'through', (select s.last_day from private.visit_rollup_state s),
                            'deleted_events', v_events, 'deleted_salts', v_salts, 'deleted_limits', v_limits);
end
$$;

comment on function private.roll_up_visits() is
  'Rolls ended days'' visit counts into visit_days and visit_day_visitors; deletes raw counts over 30 days old, ended days'' salts and old rate limits. Idempotent. pg_cron hourly; the stand-in''s local cron.';
revoke execute on function private.roll_up_visits() from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The dashboard

/**
 * The figures of staff_visits for days p_since..p_today and the chart's 90 days ending p_today:
 * the roll-up for days up to p_rolled, raw counts after it. Sales are the purchases paid since
 * p_since's midnight in p_tz, under the campaign their purchase_campaigns row carries.
 */
create function private.visit_figures(p_tz text, p_today date, p_since date, p_rolled date)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with visitor_days as materialized (
    select d.day, d.source, d.medium, d.campaign, d.referrer, sum(d.visitors) as visitors,
      sum(d.bundle_viewers) as bundle_viewers
    from private.visit_day_visitors d
    where d.day between p_today - 89 and p_rolled
    group by d.day, d.source, d.medium, d.campaign, d.referrer
    union all
    select r.day, r.source, r.medium, r.campaign, r.referrer, sum(r.visitors), sum(r.bundle_viewers)
    from private.visitor_days_of(greatest(p_rolled + 1, p_today - 89), p_today) r
    group by r.day, r.source, r.medium, r.campaign, r.referrer
  ),
  counts as materialized (
    select d.kind, d.source, d.medium, d.campaign, d.referrer, sum(d.events) as events
    from private.visit_days d
    where d.day between p_since and p_rolled and d.kind <> 'view'
    group by 1, 2, 3, 4, 5
    union all
    select e.kind, e.source, e.medium, e.campaign, e.referrer, count(*)
    from private.visit_events e
    where e.day between greatest(p_rolled + 1, p_since) and p_today and e.kind <> 'view'
    group by 1, 2, 3, 4, 5
  ),
  facts as materialized (
    select v.source, v.medium, v.campaign, v.referrer, v.visitors, 0::numeric as checkouts, 0::bigint as sales,
      null::text as currency, 0::numeric as cents
    from visitor_days v where v.day >= p_since
    union all
    select c.source, c.medium, c.campaign, c.referrer, 0, c.events, 0, null, 0
    from counts c where c.kind = 'checkout'
    union all
    -- Every sale of the period as direct / unknown (read from the index alone), then each sale
    -- with a campaign row moved from there to its campaign and referrer.
    select null, null, null, null, 0, 0, count(*), p.currency, sum(p.amount_cents)
    from public.purchases p
    where p.created_at >= (p_since::timestamp at time zone p_tz)
    group by p.currency
    union all
    select m.source, m.medium, m.campaign, m.referrer, 0, 0, m.sign * count(*), p.currency, m.sign * sum(p.amount_cents)
    from public.purchase_campaigns pc
    join public.purchases p on p.id = pc.purchase_id
    cross join lateral (values (pc.source, pc.medium, pc.campaign, pc.referrer, 1),
                               (null, null, null, null, -1)) m (source, medium, campaign, referrer, sign)
    where p.created_at >= (p_since::timestamp at time zone p_tz)
    group by m.source, m.medium, m.campaign, m.referrer, m.sign, p.currency
  )
  select jsonb_build_object(
    'funnel', jsonb_build_object(
      'visitors', (select coalesce(sum(v.visitors), 0)::bigint from visitor_days v where v.day >= p_since),
      'bundles', (select coalesce(sum(v.bundle_viewers), 0)::bigint from visitor_days v where v.day >= p_since),
      'checkouts', (select coalesce(sum(c.events), 0)::bigint from counts c where c.kind = 'checkout'),
      'sales', (select coalesce(sum(f.sales), 0)::bigint from facts f)),
    'by_campaign', (
      select coalesce(jsonb_agg(jsonb_build_object('source', g.source, 'medium', g.medium, 'campaign', g.campaign,
        'visitors', g.visitors, 'checkouts', g.checkouts, 'sales', g.sales, 'revenue', g.revenue)
        order by g.visitors desc, g.sales desc, g.source nulls first, g.medium nulls first, g.campaign nulls first), '[]'::jsonb)
      from (
        select t.source, t.medium, t.campaign, sum(t.visitors)::bigint as visitors, sum(t.checkouts)::bigint as checkouts,
          sum(t.sales)::bigint as sales,
          coalesce(jsonb_agg(jsonb_build_object('currency', t.currency, 'cents', t.cents) order by t.currency)
                   filter (where t.currency is not null and t.sales > 0), '[]'::jsonb) as revenue
        from (
          select f.source, f.medium, f.campaign, f.currency, sum(f.visitors) as visitors, sum(f.checkouts) as checkouts,
            sum(f.sales) as sales, sum(f.cents)::bigint as cents
          from facts f group by 1, 2, 3, 4
        ) t
        group by 1, 2, 3
        having sum(t.visitors) > 0 or sum(t.checkouts) > 0 or sum(t.sales) > 0
        order by 4 desc, 6 desc, 1 nulls first, 2 nulls first, 3 nulls first
        limit 50
      ) g),
    'by_referrer', (
      select coalesce(jsonb_agg(jsonb_build_object('referrer', g.referrer, 'visitors', g.visitors,
        'checkouts', g.checkouts, 'sales', g.sales, 'revenue', g.revenue)
        order by g.visitors desc, g.sales desc, g.referrer nulls first), '[]'::jsonb)
      from (
        select t.referrer, sum(t.visitors)::bigint as visitors, sum(t.checkouts)::bigint as checkouts,
          sum(t.sales)::bigint as sales,
          coalesce(jsonb_agg(jsonb_build_object('currency', t.currency, 'cents', t.cents) order by t.currency)
                   filter (where t.currency is not null and t.sales > 0), '[]'::jsonb) as revenue
        from (
          select f.referrer, f.currency, sum(f.visitors) as visitors, sum(f.checkouts) as checkouts,
            sum(f.sales) as sales, sum(f.cents)::bigint as cents
          from facts f group by 1, 2
        ) t
        group by 1
        having sum(t.visitors) > 0 or sum(t.checkouts) > 0 or sum(t.sales) > 0
        order by 2 desc, 4 desc, 1 nulls first
        limit 50
      ) g),
    'plays', (select coalesce(sum(c.events), 0)::bigint from counts c where c.kind = 'play'),
    'returns', (select coalesce(sum(c.events), 0)::bigint from counts c where c.kind = 'return'),
    'chart', (
      select jsonb_agg(jsonb_build_object('day', d.day, 'visitors', coalesce(v.visitors, 0)) order by d.day)
      from (select p_today - g as day from generate_series(0, 89) g) d
      left join (select v.day, sum(v.visitors)::bigint as visitors from visitor_days v group by v.day) v on v.day = d.day)
  )
$$;

comment on function private.visit_figures(text, date, date, date) is
  'staff_visits'' figures for p_since..p_today (funnel, by campaign, by referrer, plays, returns) and the 90-day chart; roll-up through p_rolled, raw counts after.';
revoke execute on function private.visit_figures(text, date, date, date) from public, anon, authenticated, service_role;

/** Staff only: the visits of the last p_days days (definer: reads the visit tables and the sales). */
create function private.staff_visits(p_days integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_tz text := private.owner_time_zone();
  v_today date := (now() at time zone v_tz)::date;
  v_since date;
  v_rolled date;
begin
  if not private.is_staff() then
    raise exception 'only staff can read the visits' using errcode = '42501';
  end if;
  if p_days is null or p_days not in (1, 7, 30, 90) then
    raise exception 'p_days must be 1, 7, 30 or 90' using errcode = '22023';
  end if;
  v_since := v_today - (p_days - 1);
  v_rolled := least(coalesce((select s.last_day from private.visit_rollup_state s), v_today - 90), v_today - 1);
  return jsonb_build_object('days', p_days, 'since', v_since, 'today', v_today, 'time_zone', v_tz)
    || private.visit_figures(v_tz, v_today, v_since, v_rolled);
end
$$;

comment on function private.staff_visits(integer) is
  'Staff only (else 42501): the visits of the last p_days days as jsonb. Called by public.staff_visits().';
revoke execute on function private.staff_visits(integer) from public, anon, authenticated, service_role;
grant execute on function private.staff_visits(integer) to authenticated;

create function public.staff_visits(p_days integer)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.staff_visits(p_days)
$$;

comment on function public.staff_visits(integer) is
  'Staff only (else 42501; p_days 1, 7, 30 or 90, else 22023): visitors, bundle viewers, checkout clicks and sales; by campaign and by referrer with revenue per currency; plays, returns; visitors per day over 90 days. Owner''s days. Security invoker over private.staff_visits().';
revoke execute on function public.staff_visits(integer) from public, anon, authenticated, service_role;
grant execute on function public.staff_visits(integer) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The schedule (hosted): pg_cron runs the roll-up hourly, in SQL. Where the platform has no
-- pg_cron (the local stand-in's engine, the test server) nothing is scheduled here: the
-- stand-in runs the same call on its own timer (packages/supabase-stand-in/cron.mjs).
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron with schema pg_catalog;
    execute $cron$ select cron.schedule('roll-up-visits', '7 * * * *', 'select private.roll_up_visits()') $cron$;
  else
    raise notice 'pg_cron not available: the visits'' roll-up is not scheduled here';
  end if;
end
$$;
