-- Paid files leave through one door: the `download` Edge Function (supabase/functions/download).
-- It asks the database whether the member may have the file (authorize_download), stamps a copy
-- with the member's e-mail, logs the download here and hands out a signed link living 60 s.
--
-- * public.download_log: one row per download served. Members read their own rows, staff all;
--   only the function (service_role) writes.
-- * The resources bucket: members may list the folders of their tier, but no longer download or
--   sign its objects themselves (only staff may); the function signs with the service role.
-- * The stamped-downloads bucket: private, no policy: the stamped copies, one per member and
--   file version, read and written only by the function.
-- * Staff read who downloads what: per-file totals and members past the sharing limits.
-- See docs/decisions/072-downloads-through-the-server.md.

-- ---------------------------------------------------------------------------------------------
-- The download log

/** One download served by the download function: who, which file and version, when, from where. */
create table public.download_log (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  object_id uuid not null,
  file_name text not null check (char_length(file_name) between 1 and 1024),
  file_version text,
  downloaded_at timestamptz not null default now(),
  ip inet,
  user_agent text check (char_length(user_agent) <= 512)
);

comment on table public.download_log is
  'Append-only log of paid-file downloads, written only by the download Edge Function (service_role). A member reads their own rows, staff all.';
comment on column public.download_log.file_name is 'The object''s path in the resources bucket ({tier}/{slug}/{file}).';
comment on column public.download_log.file_version is 'storage.objects.version of the file served: a replaced file has a new one.';
comment on column public.download_log.ip is 'The caller''s address as the platform forwarded it (x-forwarded-for), null when unknown.';

create index download_log_user_time on public.download_log (user_id, downloaded_at desc);
create index download_log_time on public.download_log (downloaded_at desc);

alter table public.download_log enable row level security;
revoke all on table public.download_log from public, anon, authenticated, service_role;
grant select on table public.download_log to authenticated;
grant select, insert on table public.download_log to service_role;
revoke all on sequence public.download_log_id_seq from public, anon, authenticated, service_role;

/** A member reads their own downloads; staff read everyone's. */
create policy "Members read their own downloads, staff all"
  on public.download_log for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

comment on policy "Members read their own downloads, staff all" on public.download_log is
  'select: the caller''s own rows, or every row for staff. No client role writes (no grant).';

-- ---------------------------------------------------------------------------------------------
-- Whether a member may have a file

/**
 * For the download function (service_role): may this user have this object of the resources
 * bucket? 'forbidden' when the path's tier folder is above the user's tier (staff pass), decided
 * from the path alone so it reveals nothing about what exists; 'not_found' for a malformed path
 * or a missing object. Security definer: it reads the staff table, which no API role can.
 */
create function private.authorize_download(p_user uuid, p_name text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  folder_tier text := public.resource_path_tier(p_name);
  staff boolean := exists (select 1 from public.staff s where s.user_id = p_user);
  member_rank integer;
  obj storage.objects%rowtype;
begin
  if folder_tier is null then
    return jsonb_build_object('status', 'not_found');
  end if;
  select public.tier_rank(t.tier::text) into member_rank from public.user_tiers t where t.user_id = p_user;
  if not staff and (member_rank is null or public.tier_rank(folder_tier) > member_rank) then
    return jsonb_build_object('status', 'forbidden', 'tier', folder_tier);
  end if;
  select * into obj from storage.objects o where o.bucket_id = 'resources' and o.name = p_name;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  return jsonb_build_object(
    'status', 'ok', 'object_id', obj.id, 'version', coalesce(obj.version, obj.updated_at::text),
    'mimetype', obj.metadata ->> 'mimetype'
  );
end
$$;

comment on function private.authorize_download(uuid, text) is
  'For the download function: ok (with the object id, version and type), forbidden (tier folder above the user''s) or not_found.';
revoke execute on function private.authorize_download(uuid, text) from public, anon, authenticated, service_role;
grant execute on function private.authorize_download(uuid, text) to service_role;

/** The download function's entry to private.authorize_download: service_role only. */
create function public.authorize_download(p_user uuid, p_name text)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.authorize_download(p_user, p_name)
$$;

comment on function public.authorize_download(uuid, text) is
  'service_role only (the download function): whether p_user may download resources/p_name. Security invoker over private.authorize_download().';
revoke execute on function public.authorize_download(uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.authorize_download(uuid, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Storage: members list, only staff and the function download

drop policy "Subscribers can read resources of their tier and below" on storage.objects;

/**
 * Members list the folders of their tier and below, and nothing else: Storage names each route
 * in the transaction-local storage.operation (storage-api src/http/routes/operations.ts), and a
 * download, a signing or an info read is not the list route, so it finds no row. Staff read
 * everything in the bucket. The download function reads with the service role.
 */
create policy "Subscribers can list resources of their tier and below"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'resources'
    and (
      (select private.is_staff())
      or (
        current_setting('storage.operation', true) = 'storage.object.list'
        and public.tier_rank(public.resource_path_tier(name)) <= (select public.current_tier_rank())
      )
    )
  );

do $$ begin
  comment on policy "Subscribers can list resources of their tier and below" on storage.objects is
    'resources: staff select everything; a member only lists (storage.operation storage.object.list) their tier and below, never downloads or signs.';
exception when insufficient_privilege then
  raise notice 'policy comment skipped: storage.objects belongs to the storage admin here';
end $$;

/** Stamped copies: private, no policy, so only the service role (the download function) reaches them. */
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('stamped-downloads', 'stamped-downloads', false, 209715200, array['application/pdf', 'application/epub+zip'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- ---------------------------------------------------------------------------------------------
-- What staff see

/**
 * Staff only: members past a sharing limit: more than p_max_per_day downloads, or downloads from
 * more than p_max_ips addresses, in the 24 hours before now. The limits come from the site's
 * config (src/config/downloads.ts); nothing is blocked, staff judge.
 */
create function private.staff_download_flags(p_max_per_day integer, p_max_ips integer)
returns table (user_id uuid, email text, downloads bigint, addresses bigint, last_download_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can read download flags' using errcode = '42501';
  end if;
  return query
    select d.user_id, u.email::text, count(*), count(distinct d.ip), max(d.downloaded_at)
    from public.download_log d
    join auth.users u on u.id = d.user_id
    where d.downloaded_at > now() - interval '24 hours'
    group by d.user_id, u.email
    having count(*) > p_max_per_day or count(distinct d.ip) > p_max_ips
    order by count(*) desc, u.email;
end
$$;

comment on function private.staff_download_flags(integer, integer) is
  'Staff only (else 42501): members with more than p_max_per_day downloads or more than p_max_ips addresses in the last 24 hours.';
revoke execute on function private.staff_download_flags(integer, integer) from public, anon, authenticated, service_role;
grant execute on function private.staff_download_flags(integer, integer) to authenticated;

create function public.staff_download_flags(p_max_per_day integer, p_max_ips integer)
returns table (user_id uuid, email text, downloads bigint, addresses bigint, last_download_at timestamptz)
language sql
stable
set search_path = ''
as $$
  select * from private.staff_download_flags(p_max_per_day, p_max_ips)
$$;

comment on function public.staff_download_flags(integer, integer) is
  'Staff only (else 42501): members past a sharing limit. Security invoker over private.staff_download_flags().';
revoke execute on function public.staff_download_flags(integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.staff_download_flags(integer, integer) to authenticated;

/** Staff only: downloads per file, all time: how many, by how many members, the latest. */
create function public.staff_download_totals()
returns table (file_name text, downloads bigint, members bigint, last_download_at timestamptz)
language plpgsql
stable
set search_path = ''
as $$
begin
  if not (select private.is_staff()) then
    raise exception 'only staff can read download totals' using errcode = '42501';
  end if;
  return query
    select d.file_name, count(*), count(distinct d.user_id), max(d.downloaded_at)
    from public.download_log d
    group by d.file_name
    order by count(*) desc, d.file_name;
end
$$;

comment on function public.staff_download_totals() is
  'Staff only (else 42501): per file of the resources bucket, its downloads, distinct members and latest download. Security invoker: reads download_log under its staff policy.';
revoke execute on function public.staff_download_totals() from public, anon, authenticated, service_role;
grant execute on function public.staff_download_totals() to authenticated;
