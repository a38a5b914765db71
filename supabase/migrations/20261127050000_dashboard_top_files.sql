-- The staff dashboard's top files: the download log's ten most downloaded files over the last
-- 30 days, where the dashboard said "not logged yet" before the log existed.

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
