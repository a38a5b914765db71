-- Two findings of issue 10, closed on hosted Supabase as well as in the stand-in.
--
-- 3. Realtime DELETE events. Hosted Realtime cannot ask RLS about a row that is gone, so it
--    sends every subscriber of a published table the primary key of each deleted row. For
--    profiles that key is the user id: deleting an account told every listener which id went.
--    The publication now publishes inserts and updates only (profiles is its one table, and
--    the app never deletes a profile: it only follows renames and new avatars). A deleted
--    account's avatar is removed with the account, so its public URL stops serving it.
-- 4. The database linter (splinter). Security definer functions in an exposed schema that anon
--    or authenticated may execute (lints 0028, 0029) move to the schema `private`, which the
--    API does not expose (config.toml [api] schemas); the policies call them there. The app
--    still calls rpc('is_staff') and staff rpc('set_user_tier'): those stay in public as
--    security invoker wrappers. staff and tier_audit get an explicit deny policy for the API
--    roles (lint 0008, RLS enabled with no policy): the intent is written down, and a later
--    grant or permissive policy cannot open them by accident.

create schema if not exists private;
comment on schema private is
  'Helpers for policies and triggers. Not exposed by the API (not in config.toml [api] schemas).';
revoke all on schema private from public;
-- Policies run as the caller, so the API roles need to reach the helpers they call.
grant usage on schema private to anon, authenticated, service_role;

/** Whether the calling user is staff. Security definer: callers cannot read public.staff. */
create function private.is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.staff s where s.user_id = (select auth.uid())
  )
$$;

comment on function private.is_staff() is
  'True when the calling user (auth.uid()) is staff. Called by policies and public.is_staff().';

revoke execute on function private.is_staff() from public, anon, authenticated;
grant execute on function private.is_staff() to anon, authenticated, service_role;

-- public.is_staff() keeps its name and answer for the app (rpc is_staff), but no longer runs
-- with its owner's rights: it asks private.is_staff(), which reveals only the caller's own
-- membership.
create or replace function public.is_staff()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select private.is_staff()
$$;

comment on function public.is_staff() is
  'True when the calling user (auth.uid()) is staff; the app calls it (rpc is_staff). Security invoker over private.is_staff().';

/**
 * Staff only: sets (or with null removes) a user's tier. Security definer because no API role
 * may write user_tiers; the staff check is its first statement.
 */
create function private.set_user_tier(target_user uuid, new_tier public.tier)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can change tiers' using errcode = '42501';
  end if;
  if target_user is null then
    raise exception 'target_user is required' using errcode = '22004';
  end if;
  if new_tier is null then
    delete from public.user_tiers where user_id = target_user;
  else
    insert into public.user_tiers (user_id, tier)
    values (target_user, new_tier)
    on conflict (user_id) do update set tier = excluded.tier
    where public.user_tiers.tier is distinct from excluded.tier;
  end if;
end
$$;

comment on function private.set_user_tier(uuid, public.tier) is
  'Staff only: sets (or with null removes) a user''s tier; audited in tier_audit. Called by public.set_user_tier().';

revoke execute on function private.set_user_tier(uuid, public.tier) from public, anon, authenticated, service_role;
grant execute on function private.set_user_tier(uuid, public.tier) to authenticated;

create or replace function public.set_user_tier(target_user uuid, new_tier public.tier)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  perform private.set_user_tier(target_user, new_tier);
end
$$;

comment on function public.set_user_tier(uuid, public.tier) is
  'Staff only (else 42501): sets (or with null removes) a user''s tier; audited in tier_audit. Security invoker over private.set_user_tier().';

/**
 * Storage policy helper: false when metadata names a mimetype the bucket does not allow, or a
 * size (contentLength, which hosted uploads send, or size) that is not a number or is above
 * the bucket's limit. Security definer because API roles cannot read storage.buckets.
 */
create function private.object_fits_bucket(bucket text, metadata jsonb)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select
      (
        metadata is null
        or metadata ->> 'mimetype' is null
        or b.allowed_mime_types is null
        or exists (
          select 1
          from unnest(b.allowed_mime_types) as allowed(mime)
          where lower(btrim(split_part(metadata ->> 'mimetype', ';', 1)))
                like replace(lower(allowed.mime), '*', '%')
        )
      )
      and (
        metadata is null
        or not exists (
          select 1
          from unnest(array['contentLength', 'size']) as k(key)
          where metadata -> k.key is not null
            and (
              jsonb_typeof(metadata -> k.key) <> 'number'
              or (b.file_size_limit is not null and (metadata ->> k.key)::numeric > b.file_size_limit)
            )
        )
      )
    from storage.buckets b
    where b.id = bucket
  ), false)
$$;

comment on function private.object_fits_bucket(text, jsonb) is
  'Storage policy helper: false when object metadata has a mimetype or size (contentLength / size) the bucket does not allow.';

revoke execute on function private.object_fits_bucket(text, jsonb) from public, anon, authenticated;
grant execute on function private.object_fits_bucket(text, jsonb) to authenticated, service_role;

-- The policies call the private helpers. ALTER POLICY keeps each policy's name, roles and
-- comment; only the expressions change.
alter policy "Users can upload their own avatar" on storage.objects
  with check (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
    and private.object_fits_bucket(bucket_id, metadata)
  );

alter policy "Users can replace their own avatar" on storage.objects
  using (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
  )
  with check (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
    and private.object_fits_bucket(bucket_id, metadata)
  );

alter policy "Subscribers can read resources of their tier and below" on storage.objects
  using (
    bucket_id = 'resources'
    and (
      public.tier_rank(public.resource_path_tier(name)) <= (select public.current_tier_rank())
      or (select private.is_staff())
    )
  );

alter policy "Staff can upload resources" on storage.objects
  with check (
    bucket_id = 'resources'
    and (select private.is_staff())
    and public.resource_path_tier(name) is not null
    and private.object_fits_bucket(bucket_id, metadata)
  );

alter policy "Staff can replace resources" on storage.objects
  using (
    bucket_id = 'resources'
    and (select private.is_staff())
  )
  with check (
    bucket_id = 'resources'
    and (select private.is_staff())
    and public.resource_path_tier(name) is not null
    and private.object_fits_bucket(bucket_id, metadata)
  );

alter policy "Staff can delete resources" on storage.objects
  using (
    bucket_id = 'resources'
    and (select private.is_staff())
  );

drop function public.object_fits_bucket(text, jsonb);

-- Lint 0008: staff and tier_audit had RLS and no policy, which denies everything but says
-- nothing. A restrictive policy that is always false keeps denying the API roles even if a
-- later migration grants them the table and adds a permissive policy.

create policy "No API access to staff"
  on public.staff
  as restrictive
  for all
  to anon, authenticated
  using (false)
  with check (false);
comment on policy "No API access to staff" on public.staff is
  'Deny-all for anon and authenticated: staff membership is read only through is_staff().';

create policy "No API access to the tier audit"
  on public.tier_audit
  as restrictive
  for all
  to anon, authenticated
  using (false)
  with check (false);
comment on policy "No API access to the tier audit" on public.tier_audit is
  'Deny-all for anon and authenticated: the log is written by the audit trigger and read by service_role / SQL.';

-- 3. Realtime: no DELETE (or TRUNCATE) events. Hosted Realtime sends a deleted row's primary
-- key to every subscriber without an RLS check; profiles' key is the user id.
alter publication supabase_realtime set (publish = 'insert, update');

/**
 * Trigger on auth.users: deletes the deleted user's objects in the avatars bucket
 * ({user id}/...), so the public avatar URL stops serving them. Security definer (owner
 * postgres) because the auth server deletes users as a role with no storage privileges.
 * Storage blocks direct SQL deletes (storage.protect_delete) unless the transaction-local
 * storage.allow_delete_query is 'true', which is how the Storage API itself deletes rows;
 * it is set only around this delete. Storage keeps the file's bytes in its backend: the row
 * is what the API serves, so the file is unreachable from here on.
 */
create function private.delete_avatar_of_deleted_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous text := current_setting('storage.allow_delete_query', true);
begin
  perform set_config('storage.allow_delete_query', 'true', true);
  delete from storage.objects
  where bucket_id = 'avatars'
    and name like old.id::text || '/%';
  perform set_config('storage.allow_delete_query', coalesce(previous, ''), true);
  return old;
end
$$;

comment on function private.delete_avatar_of_deleted_user() is
  'Trigger on auth.users: deletes the user''s objects under {user id}/ in the avatars bucket.';

revoke execute on function private.delete_avatar_of_deleted_user() from public, anon, authenticated, service_role;

create trigger on_auth_user_deleted_remove_avatar
  after delete on auth.users
  for each row execute function private.delete_avatar_of_deleted_user();

do $$ begin
  comment on trigger on_auth_user_deleted_remove_avatar on auth.users is
    'Deletes the user''s avatar objects (private.delete_avatar_of_deleted_user).';
exception when insufficient_privilege then null;
end $$;
