-- Paid files the download function could not stamp (password-protected, not a PDF, damaged):
-- the function refuses the member in words and records the file here; staff see it on the
-- dashboard's "Needs attention" with what to do, until the file is replaced.
--
-- * public.unstampable_files: one row per object version, written only by the download
--   function (service_role) through record_unstampable_file, so a file hit again and again
--   stays one row (first seen, last seen, how many refusals). Staff read it; members nothing.
-- * private.staff_dashboard(): 'unstampable_files', the rows whose object still exists with
--   that version. A replaced file has a new version, so it leaves the list by itself.
-- See docs/decisions/095-what-cannot-be-stamped-is-refused.md.

/** A file version the download function could not stamp, and why. */
create table public.unstampable_files (
  object_id uuid not null,
  file_version text not null check (char_length(file_version) between 1 and 200),
  file_name text not null check (char_length(file_name) between 1 and 1024),
  reason text not null check (reason in ('not_pdf', 'encrypted', 'damaged')),
  first_seen timestamptz not null default now(),
  last_seen timestamptz not null default now(),
  refusals integer not null default 1 check (refusals >= 1),
  primary key (object_id, file_version)
);

comment on table public.unstampable_files is
  'Files of the resources bucket the download function could not stamp, one row per object version; written only by the function (service_role), read by staff.';
comment on column public.unstampable_files.file_version is
  'storage.objects.version (or updated_at when none) of the file, as authorize_download reports it.';
comment on column public.unstampable_files.reason is
  'Why it cannot be stamped (the function''s PdfProblemReason): not_pdf, encrypted or damaged.';
comment on column public.unstampable_files.refusals is 'How many downloads of this version were refused.';

alter table public.unstampable_files enable row level security;
revoke all on table public.unstampable_files from public, anon, authenticated, service_role;
grant select on table public.unstampable_files to authenticated;
grant select, insert, update on table public.unstampable_files to service_role;

/** Staff read every row; members none (the policy finds nothing for them). */
create policy "Staff read unstampable files"
  on public.unstampable_files for select
  to authenticated
  using ((select private.is_staff()));

comment on policy "Staff read unstampable files" on public.unstampable_files is
  'select: staff only. No client role writes (no grant).';

/**
 * For the download function (service_role): a download of this file version was refused
 * because it cannot be stamped. The first refusal adds the row, each next one moves last_seen
 * and counts; the reason is the latest.
 */
create function public.record_unstampable_file(p_object_id uuid, p_name text, p_version text, p_reason text)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  insert into public.unstampable_files as u (object_id, file_version, file_name, reason)
  values (p_object_id, p_version, p_name, p_reason)
  on conflict (object_id, file_version) do update
    set file_name = excluded.file_name, reason = excluded.reason, last_seen = now(), refusals = u.refusals + 1
$$;

comment on function public.record_unstampable_file(uuid, text, text, text) is
  'service_role only (the download function): records a refused download of a file version that cannot be stamped; one row per version.';
revoke execute on function public.record_unstampable_file(uuid, text, text, text) from public, anon, authenticated, service_role;
grant execute on function public.record_unstampable_file(uuid, text, text, text) to service_role;

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
      ) t),
    -- Files members could not get because they cannot be stamped, latest refusal first: only
    -- versions still in the bucket (a replaced or removed file has left), under their name now.
    'unstampable_files', (
      select coalesce(jsonb_agg(jsonb_build_object('name', f.name, 'reason', f.reason, 'first_seen', f.first_seen,
                                                   'last_seen', f.last_seen, 'refusals', f.refusals)
                                order by f.last_seen desc, f.name), '[]'::jsonb)
      from (
        select o.name, u.reason, u.first_seen, u.last_seen, u.refusals
        from public.unstampable_files u
        join storage.objects o
          on o.id = u.object_id and o.bucket_id = 'resources'
         and coalesce(o.version, o.updated_at::text) = u.file_version
        order by u.last_seen desc, o.name
        limit 50
      ) f)
  );
end
$$;
