-- Stamped copies expire: a copy nobody has downloaded for 90 days is removed, and the member's
-- next download stamps it again (supabase/functions/download/copy.ts signs the cached copy and
-- stamps when Storage says it is missing).
--
-- * stamped_copies_to_expire(before, limit): the copies in the stamped-downloads bucket whose
--   last use is before `before`, oldest first. A copy's last use is the latest of its object's
--   created_at / updated_at and its member's last download of that file version (download_log),
--   so a copy made less than 90 days ago is never taken, even when its log row is missing.
-- * The schedule (hosted): Supabase Cron POSTs to the download function's `expire` route daily;
--   the function removes the copies through the Storage API. Rows of storage.objects cannot be
--   deleted here: Storage's protect_delete trigger refuses a direct delete ("Use the Storage API
--   instead", supabase/storage migrations/tenant/0055-prevent-direct-deletes.sql), and a row
--   deleted in SQL would leave its bytes behind in the object store.
-- See docs/decisions/096-stamped-copies-expire.md.

/**
 * Up to p_limit (1..1000, Storage's most per delete request) stamped copies, by name, last used
 * before p_before, oldest first. A copy is named {member}/{object id}/{version}.{ext}, the version
 * made safe as copy.ts makes it (every run of other characters than A-Z a-z 0-9 _ - becomes one
 * _, then the first 100 characters), and is matched against download_log on the same three.
 */
create function private.stamped_copies_to_expire(p_before timestamptz, p_limit integer)
returns table (name text, last_used_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uuid_pattern constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
begin
  if p_before is null or p_before > now() then
    raise exception 'p_before must be a time in the past' using errcode = '22023';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'p_limit must be between 1 and 1000' using errcode = '22023';
  end if;
  return query
    select c.name, c.last_used_at
    from (
      select o.name, greatest(o.created_at, o.updated_at, l.last_download) as last_used_at
      from storage.objects o
      cross join lateral (
        select
          case when split_part(o.name, '/', 1) ~ uuid_pattern then split_part(o.name, '/', 1)::uuid end as member_id,
          case when split_part(o.name, '/', 2) ~ uuid_pattern then split_part(o.name, '/', 2)::uuid end as object_id,
          regexp_replace(split_part(o.name, '/', 3), '\.[^.]*$', '') as version
      ) p
      cross join lateral (
        select max(d.downloaded_at) as last_download
        from public.download_log d
        where d.user_id = p.member_id
          and d.object_id = p.object_id
          and left(regexp_replace(d.file_version, '[^A-Za-z0-9_-]+', '_', 'g'), 100) = p.version
      ) l
      where o.bucket_id = 'stamped-downloads'
        and o.created_at < p_before
        and coalesce(o.updated_at, o.created_at) < p_before
    ) c
    where c.last_used_at < p_before
    order by c.last_used_at, c.name
    limit p_limit;
end
$$;

comment on function private.stamped_copies_to_expire(timestamptz, integer) is
  'Stamped copies (stamped-downloads) last used before p_before: neither made, replaced nor downloaded since; oldest first, at most p_limit.';
revoke execute on function private.stamped_copies_to_expire(timestamptz, integer) from public, anon, authenticated;
grant execute on function private.stamped_copies_to_expire(timestamptz, integer) to service_role;

create function public.stamped_copies_to_expire(p_before timestamptz, p_limit integer)
returns table (name text, last_used_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.stamped_copies_to_expire(p_before, p_limit)
$$;

comment on function public.stamped_copies_to_expire(timestamptz, integer) is
  'service_role only (the download function''s expire route): stamped copies last used before p_before. Security invoker over private.stamped_copies_to_expire().';
revoke execute on function public.stamped_copies_to_expire(timestamptz, integer) from public, anon, authenticated;
grant execute on function public.stamped_copies_to_expire(timestamptz, integer) to service_role;

-- ---------------------------------------------------------------------------------------------
-- The schedule (hosted): Supabase Cron calls the download function's expire route once a day
-- through pg_net, only when some copy is older than 90 days. Where the platform offers neither
-- extension (the local stand-in's engine, the test server) nothing is scheduled here: the
-- stand-in calls the same URL on its own timer (packages/supabase-stand-in/cron.mjs).
-- It uses the Vault secrets the invitations' schedule set up (README, "Going live"): project_url
-- and purchase_webhook_service_key, the project's service-role key.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron')
     and exists (select 1 from pg_available_extensions where name = 'pg_net')
     and exists (select 1 from pg_namespace where nspname = 'vault') then
    create extension if not exists pg_cron with schema pg_catalog;
    create extension if not exists pg_net with schema extensions;
    execute $cron$
      select cron.schedule(
        'download-expire-stamped-copies',
        '17 3 * * *',
        $job$
          select net.http_post(
            url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url')
                   || '/functions/v1/download/expire',
            headers := jsonb_build_object(
              'Content-Type', 'application/json',
              'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets
                                             where name = 'purchase_webhook_service_key')),
            body := '{}'::jsonb,
            timeout_milliseconds := 120000
          )
          where exists (select 1 from storage.objects
                        where bucket_id = 'stamped-downloads' and created_at < now() - interval '90 days')
        $job$
      )
    $cron$;
  else
    raise notice 'pg_cron / pg_net / vault not available: the stamped copies'' expiry is not scheduled here';
  end if;
end
$$;
