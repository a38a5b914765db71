-- Three holes that the stand-in hid and hosted Supabase would have left open.
--
-- 1. Copy or move into avatars. Storage applies a bucket's file_size_limit and
--    allowed_mime_types only on its upload routes; POST /object/copy and /object/move skip
--    them. Storage sets the transaction-local setting storage.operation for every request
--    (set_config('storage.operation', <route operation>, true)), so a restrictive policy lets
--    writes into avatars happen only while an upload route is serving the request.
-- 2. The size check read metadata.size. The row hosted Storage tests against RLS before an
--    upload carries {mimetype, contentLength}; for a copy it carries the source object's
--    metadata (which has both size and contentLength). object_fits_bucket now reads
--    contentLength, and size when present.
-- 3. Default privileges. The platform grants anon and authenticated everything on each new
--    table, function and sequence in public, and PUBLIC may execute every new function. Those
--    defaults are revoked once here, so a future migration that forgets to revoke exposes
--    nothing.

/**
 * Writes (insert, update) into avatars only while Storage serves an upload route: a new
 * upload or upsert (storage.object.upload), an overwrite (storage.object.upload_update),
 * and the signed-upload pair (storage.object.sign_upload_url, storage.object.upload_signed).
 * Copy, move, TUS, S3 and direct PostgREST/SQL writes (no storage.operation) are refused.
 * Restrictive: it narrows the permissive avatar policies, it grants nothing.
 */
create policy "Avatar writes only through the upload routes"
  on storage.objects
  as restrictive
  for insert
  to public
  with check (
    bucket_id <> 'avatars'
    or current_setting('storage.operation', true) in (
      'storage.object.upload',
      'storage.object.upload_update',
      'storage.object.sign_upload_url',
      'storage.object.upload_signed'
    )
  );

/** The same guard for updates: an overwrite keeps working, a move into or out of avatars does not. */
create policy "Avatar updates only through the upload routes"
  on storage.objects
  as restrictive
  for update
  to public
  using (
    bucket_id <> 'avatars'
    or current_setting('storage.operation', true) in (
      'storage.object.upload',
      'storage.object.upload_update',
      'storage.object.sign_upload_url',
      'storage.object.upload_signed'
    )
  )
  with check (
    bucket_id <> 'avatars'
    or current_setting('storage.operation', true) in (
      'storage.object.upload',
      'storage.object.upload_update',
      'storage.object.sign_upload_url',
      'storage.object.upload_signed'
    )
  );

do $$ begin
  comment on policy "Avatar writes only through the upload routes" on storage.objects is
    'avatars (restrictive): insert only while storage.operation is an upload route, never copy or move.';
  comment on policy "Avatar updates only through the upload routes" on storage.objects is
    'avatars (restrictive): update only while storage.operation is an upload route, never copy or move.';
exception when insufficient_privilege then
  raise notice 'policy comments skipped: storage.objects belongs to the storage admin here';
end $$;

/**
 * object_fits_bucket(bucket, metadata): false when metadata names a mimetype the bucket does
 * not allow, or a contentLength or size above its limit (or not a number). Hosted Storage
 * tests an upload with {mimetype, contentLength} and a copy with the source's metadata;
 * missing keys pass (the storage server checks them itself on its upload routes). Security
 * definer because API roles cannot read storage.buckets; it only reveals public limits.
 */
create or replace function public.object_fits_bucket(bucket text, metadata jsonb)
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

comment on function public.object_fits_bucket(text, jsonb) is
  'Storage policy helper: false when object metadata has a mimetype, contentLength or size the bucket does not allow.';

-- create or replace keeps the existing grants; restated so this file reads on its own.
revoke execute on function public.object_fits_bucket(text, jsonb) from public, anon, authenticated;
grant execute on function public.object_fits_bucket(text, jsonb) to authenticated, service_role;

-- Default privileges of the migration role (postgres): nothing for the API roles on new
-- objects in public, and no execute for PUBLIC on new functions anywhere (a per-schema
-- revoke cannot remove the global PUBLIC default). service_role keeps its defaults.
alter default privileges for role postgres in schema public revoke all on tables from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on sequences from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on functions from anon, authenticated;
alter default privileges for role postgres revoke execute on functions from public;

-- supabase_admin holds the same platform defaults on hosted projects, but the migration role
-- may not be allowed to change another role's defaults: skip rather than fail a db push.
do $$ begin
  alter default privileges for role supabase_admin in schema public revoke all on tables from anon, authenticated;
  alter default privileges for role supabase_admin in schema public revoke all on sequences from anon, authenticated;
  alter default privileges for role supabase_admin in schema public revoke all on functions from anon, authenticated;
  alter default privileges for role supabase_admin revoke execute on functions from public;
exception when insufficient_privilege or undefined_object then
  raise notice 'default privileges of supabase_admin left as they are: %', sqlerrm;
end $$;
