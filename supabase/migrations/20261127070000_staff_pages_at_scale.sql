-- The staff pages at a programme's scale: 50,000 members, 100,000 purchases, 200,000 downloads
-- (`npm run bench:staff` measures each query). Same answers, read once:
--
-- * the dashboard reads the 90 days' sales once (dashboard_sales), grouped by owner's day, tier
--   and currency, and takes the chart and the today / 7 / 30 days figures from that, in place of
--   dashboard_period and dashboard_chart (whose per-day subquery read the 90 days once per day:
--   the planner inlines a CTE referenced once);
-- * staff_list_members counts the matches once and cuts its page first, then computes the tier
--   source and purchase count of that page's members only. Its order comes from GoTrue's own
--   index users_instance_id_email_idx (instance_id, lower(email)) for the accounts GoTrue makes
--   (nil instance id: each query of GoTrue's internal/models/user.go asks for it), merged with any
--   other row (usually none) found through users_instance_id_idx: the migration role does not own
--   auth.users and cannot index it;
-- * indexes (below) let the dashboard's sums read indexes alone, and staff_download_totals
--   count each file's downloads and distinct members in one pass in (file, member) order.
-- The CSV export's keyset pages are the next migration (staff_export_members).
-- See docs/decisions/082-staff-pages-at-scale.md.

/**
 * The dashboard's sales figures in one read of the 90 days: the sales per owner's day, tier and
 * currency, and the refunds of 30 days per day and currency; from those, each period's figures
 * (today, 7 and 30 days: from the midnight in p_tz that starts p_today - (days - 1)) and the
 * chart's sales per day and tier. An instant's day is found among the days' midnights
 * (width_bucket, a binary search), cheaper than converting every sale to local time; a sale
 * dated after today counts as day p_today + 1 (in the periods, not in the chart).
 */
create function private.dashboard_sales(p_tz text, p_today date)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with midnights as materialized (
    select array_agg((p_today - 89 + i)::timestamp at time zone p_tz order by i) as starts
    from generate_series(0, 90) i
  ),
  sales as materialized (
    select p_today - 90 + width_bucket(p.created_at, (select m.starts from midnights m)) as day,
      p.tier, p.currency, count(*) as n, sum(p.amount_cents) as cents
    from public.purchases p
    where p.created_at >= ((p_today - 89)::timestamp at time zone p_tz)
    group by 1, 2, 3
  ),
  moves as materialized (
    select s.day, s.currency, s.n, s.cents, true as is_sale from sales s where s.day >= p_today - 29
    union all
    select p_today - 90 + width_bucket(p.refunded_at, (select m.starts from midnights m)), p.currency, 1, p.amount_cents, false
    from public.purchases p
    where p.refunded_at is not null and p.refunded_at >= ((p_today - 29)::timestamp at time zone p_tz)
  )
  select jsonb_build_object(
    'periods', (
      select jsonb_agg(f.figures order by f.days)
      from (values (1), (7), (30)) k (days)
      cross join lateral (
        select k.days, jsonb_build_object(
          'days', k.days,
          'since', (p_today - (k.days - 1))::timestamp at time zone p_tz,
          'sales', coalesce(sum(t.sales), 0)::bigint,
          'refunds', coalesce(sum(t.refunds), 0)::bigint,
          'currencies', coalesce(jsonb_agg(jsonb_build_object('currency', t.currency, 'revenue_cents', t.revenue,
            'refunded_cents', t.refunded, 'net_cents', t.revenue - t.refunded) order by t.currency), '[]'::jsonb)
        ) as figures
        from (
          select m.currency,
            coalesce(sum(m.n) filter (where m.is_sale), 0) as sales,
            coalesce(sum(m.n) filter (where not m.is_sale), 0) as refunds,
            coalesce(sum(m.cents) filter (where m.is_sale), 0) as revenue,
            coalesce(sum(m.cents) filter (where not m.is_sale), 0) as refunded
          from moves m
          where m.day >= p_today - (k.days - 1)
          group by m.currency
        ) t
      ) f
    ),
    'chart', (
      select jsonb_agg(jsonb_build_object('day', g.day, 'tiers', g.tiers) order by g.day)
      from (
        select d.day, jsonb_object_agg(t.tier, coalesce(c.n, 0)) as tiers
        from (select (p_today - g)::date as day from generate_series(0, 89) g) d
        cross join unnest(enum_range(null::public.tier)) t (tier)
        left join (select s.day, s.tier, sum(s.n)::bigint as n from sales s group by s.day, s.tier) c
          on c.day = d.day and c.tier = t.tier
        group by d.day
      ) g
    )
  )
$$;

comment on function private.dashboard_sales(text, date) is
  'The dashboard''s periods (today, 7, 30 days: sales, refunds, revenue per currency) and 90-day chart, in p_tz days.';
revoke execute on function private.dashboard_sales(text, date) from public, anon, authenticated, service_role;

/** Staff only: the dashboard (definer: reads the ledger, invitations, unmatched sales, downloads). */
create or replace function private.staff_dashboard()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_tz text;
  v_today date;
  v_sales jsonb;
begin
  if not private.is_staff() then
    raise exception 'only staff can read the dashboard' using errcode = '42501';
  end if;
  select s.time_zone into v_tz from public.owner_settings s;
  v_tz := coalesce(v_tz, 'UTC');
  v_today := (now() at time zone v_tz)::date;
  v_sales := private.dashboard_sales(v_tz, v_today);
  return jsonb_build_object(
    'time_zone', v_tz,
    'today', v_today,
    'periods', v_sales -> 'periods',
    'chart', v_sales -> 'chart',
    'waiting_invitations', (
      select count(*) from public.buyer_invitations i
      where i.status in ('pending', 'sending', 'failed') or (i.status = 'sent' and i.sent_at < now() - interval '1 hour')),
    'unmatched_sales', (select count(*) from public.unmatched_sales u where u.resolved_at is null),
    -- The ten files downloaded most over the last 30 days (every download the function logged).
    'top_files', (
      select coalesce(jsonb_agg(jsonb_build_object('name', t.file_name, 'downloads', t.downloads)
                                order by t.downloads desc, t.file_name), '[]'::jsonb)
      from (
        select d.file_name, count(*) as downloads
        from public.download_log d
        where d.downloaded_at >= now() - interval '30 days'
        group by d.file_name
        order by count(*) desc, d.file_name
        limit 10
      ) t)
  );
end
$$;

drop function private.dashboard_period(integer, timestamptz);
drop function private.dashboard_chart(text, date);

/** Staff only: one page of members by e-mail (definer: reads auth.users). */
create or replace function private.staff_list_members(search text, page_size integer, page_offset integer)
returns table (
  user_id uuid, email text, tier public.tier, tier_source text, purchase_count integer,
  created_at timestamptz, last_sign_in_at timestamptz, total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can list members' using errcode = '42501';
  end if;
  if page_size is null or page_size < 1 or page_size > 1000 then
    raise exception 'page_size must be between 1 and 1000' using errcode = '22023';
  end if;
  if page_offset is null or page_offset < 0 then
    raise exception 'page_offset must not be negative' using errcode = '22023';
  end if;
  return query
    select m.id, m.email::text, ut.tier, private.tier_source_of(m.id),
      (select count(*)::integer from public.purchases p where p.user_id = m.id),
      m.created_at, m.last_sign_in_at, m.total
    from (
      select a.*, (select count(*) from auth.users c
                   where position(lower(coalesce(search, '')) in lower(coalesce(c.email, ''))) > 0) as total
      from (
        (select u.id, u.email, u.created_at, u.last_sign_in_at, lower(u.email) as sort_key
         from auth.users u
         where u.instance_id = '00000000-0000-0000-0000-000000000000'
           and position(lower(coalesce(search, '')) in lower(coalesce(u.email, ''))) > 0
         order by lower(u.email), u.id
         limit page_offset::bigint + page_size)
        union all
        (select u.id, u.email, u.created_at, u.last_sign_in_at, lower(u.email)
         from auth.users u
         where (u.instance_id > '00000000-0000-0000-0000-000000000000' or u.instance_id is null)
           and position(lower(coalesce(search, '')) in lower(coalesce(u.email, ''))) > 0
         order by lower(u.email), u.id
         limit page_offset::bigint + page_size)
        order by 5, 1
        limit page_size offset page_offset
      ) a
    ) m
    left join public.user_tiers ut on ut.user_id = m.id
    order by m.sort_key, m.id;
end
$$;

-- Index-only reads for the dashboard and the download totals: a period's or the chart's sales
-- (time, tier, currency, amount), a period's refunds, the last 30 days' downloads by file, and
-- each file's downloads by member in order (no hash of every file and member pair).
create index purchases_created_at_covering_idx on public.purchases (created_at) include (tier, currency, amount_cents);
comment on index public.purchases_created_at_covering_idx is
  'Sales by time with what the staff dashboard sums (its periods and 90-day chart), read from the index alone.';
drop index public.purchases_created_at_idx;
create index purchases_refunded_at_covering_idx on public.purchases (refunded_at) include (currency, amount_cents)
  where refunded_at is not null;
comment on index public.purchases_refunded_at_covering_idx is 'Refunds by time with their amounts (the staff dashboard).';
drop index public.purchases_refunded_at_idx;
create index download_log_time_file_idx on public.download_log (downloaded_at) include (file_name);
comment on index public.download_log_time_file_idx is 'Downloads by time and file: the dashboard''s top files of 30 days.';
create index download_log_file_user_idx on public.download_log (file_name, user_id) include (downloaded_at);
comment on index public.download_log_file_user_idx is 'Each file''s downloads by member: staff_download_totals() in one ordered pass.';
