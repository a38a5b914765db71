-- The staff dashboard in one call: sales, revenue per currency, refunds and net for today, 7 and
-- 30 days; sales per day by tier over 90 days; buyers waiting for their invitation; unmatched
-- sales. Days are the owner's (public.owner_settings.time_zone). A sale counts on the day it
-- was paid (gross revenue), a refund on the day it was refunded; net = revenue - refunded.
-- See docs/decisions/069-staff-dashboard.md.

/** The figures of the period starting at p_start (now until then), per currency. */
create function private.dashboard_period(p_days integer, p_start timestamptz)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with moves as (
    select p.currency, p.amount_cents, true as is_sale from public.purchases p where p.created_at >= p_start
    union all
    select p.currency, p.amount_cents, false from public.purchases p
    where p.refunded_at is not null and p.refunded_at >= p_start
  )
  select jsonb_build_object(
    'days', p_days,
    'since', p_start,
    'sales', (select count(*) from moves where is_sale),
    'refunds', (select count(*) from moves where not is_sale),
    'currencies', coalesce((
      select jsonb_agg(jsonb_build_object('currency', t.currency, 'revenue_cents', t.revenue, 'refunded_cents', t.refunded,
        'net_cents', t.revenue - t.refunded) order by t.currency)
      from (
        select m.currency,
          coalesce(sum(m.amount_cents) filter (where m.is_sale), 0) as revenue,
          coalesce(sum(m.amount_cents) filter (where not m.is_sale), 0) as refunded
        from moves m group by m.currency
      ) t), '[]'::jsonb)
  )
$$;

comment on function private.dashboard_period(integer, timestamptz) is 'The dashboard''s figures since p_start, per currency.';
revoke execute on function private.dashboard_period(integer, timestamptz) from public, anon, authenticated, service_role;

/** Sales per day (owner's days) and tier over the 90 days ending today. */
create function private.dashboard_chart(p_tz text, p_today date)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with counts as (
    select (p.created_at at time zone p_tz)::date as day, p.tier, count(*) as n
    from public.purchases p
    where p.created_at >= ((p_today - 89)::timestamp at time zone p_tz)
    group by 1, 2
  )
  select jsonb_agg(jsonb_build_object('day', d.day, 'tiers', (
      select jsonb_object_agg(t.tier, coalesce(c.n, 0))
      from unnest(enum_range(null::public.tier)) t (tier)
      left join counts c on c.day = d.day and c.tier = t.tier)) order by d.day)
  from (select (p_today - g)::date as day from generate_series(0, 89) g) d
$$;

comment on function private.dashboard_chart(text, date) is 'Sales per day and tier over the 90 days ending p_today, in p_tz days.';
revoke execute on function private.dashboard_chart(text, date) from public, anon, authenticated, service_role;

create function private.staff_dashboard()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_tz text;
  v_today date;
begin
  if not private.is_staff() then
    raise exception 'only staff can read the dashboard' using errcode = '42501';
  end if;
  select s.time_zone into v_tz from public.owner_settings s;
  v_tz := coalesce(v_tz, 'UTC');
  v_today := (now() at time zone v_tz)::date;
  return jsonb_build_object(
    'time_zone', v_tz,
    'today', v_today,
    'periods', jsonb_build_array(
      private.dashboard_period(1, v_today::timestamp at time zone v_tz),
      private.dashboard_period(7, (v_today - 6)::timestamp at time zone v_tz),
      private.dashboard_period(30, (v_today - 29)::timestamp at time zone v_tz)),
    'chart', private.dashboard_chart(v_tz, v_today),
    'waiting_invitations', (
      select count(*) from public.buyer_invitations i
      where i.status in ('pending', 'sending', 'failed') or (i.status = 'sent' and i.sent_at < now() - interval '1 hour')),
    'unmatched_sales', (select count(*) from public.unmatched_sales u where u.resolved_at is null),
    -- Filled by the download log when it exists; null says "not logged yet" to the page.
    'top_files', null
  );
end
$$;

comment on function private.staff_dashboard() is
  'Staff only (else 42501): the dashboard''s figures as jsonb, in the owner''s time zone. Called by public.staff_dashboard().';
revoke execute on function private.staff_dashboard() from public, anon, authenticated, service_role;
grant execute on function private.staff_dashboard() to authenticated;

create function public.staff_dashboard()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.staff_dashboard()
$$;

comment on function public.staff_dashboard() is
  'Staff only (else 42501): sales, revenue per currency, refunds and net for today / 7 / 30 days, sales per day by tier over 90 days, waiting invitations and unmatched sales, in the owner''s time zone (owner_settings). Security invoker over private.staff_dashboard().';
revoke execute on function public.staff_dashboard() from public, anon, authenticated, service_role;
grant execute on function public.staff_dashboard() to authenticated;
