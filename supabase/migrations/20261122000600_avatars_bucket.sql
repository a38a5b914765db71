-- Avatars: a public bucket (public URLs work without any select policy). A user writes only
-- {their user id}/avatar.{png|jpg|jpeg|webp|gif}; images only (no SVG, which can carry
-- script), at most 2 MB. Limits are declared here for hosted projects (`db push`) and in
-- config.toml for `supabase start`.
--
-- The policy comments sit in one do-block that lets insufficient_privilege pass: storage.objects
-- belongs to supabase_storage_admin, and some hosted images refuse COMMENT ON POLICY to the
-- migration role ("must be owner of relation objects"), which would roll back the whole file.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 2097152, array['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

/**
 * is_own_avatar_path(name): name is exactly {caller's user id}/avatar.{png|jpg|jpeg|webp|gif}
 * (extension in any case). Anything else, including '..' segments, extra folders or another
 * user's id, is false.
 */
create function public.is_own_avatar_path(name text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    storage.foldername(name) = array[(select auth.uid())::text]
    and lower(storage.filename(name)) in ('avatar.png', 'avatar.jpg', 'avatar.jpeg', 'avatar.webp', 'avatar.gif'),
    false
  )
$$;

comment on function public.is_own_avatar_path(text) is
  'Storage policy helper: true only for {auth.uid()}/avatar.{png|jpg|jpeg|webp|gif}.';

revoke execute on function public.is_own_avatar_path(text) from public, anon, authenticated;
grant execute on function public.is_own_avatar_path(text) to authenticated, service_role;

/**
 * Users can see the objects in their own avatar folder and nothing else: supabase-js upsert
 * needs it, and it keeps listing as narrow as possible. Public reads go through the public
 * URL, which needs no policy.
 */
create policy "Users can see their own avatar folder"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'avatars'
    and storage.foldername(name) = array[(select auth.uid())::text]
  );

/** Users can upload their own avatar: right path, image type, within the size limit. */
create policy "Users can upload their own avatar"
  on storage.objects for insert
  to authenticated
  with check (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
    and public.object_fits_bucket(bucket_id, metadata)
  );

/** Users can replace their own avatar, under the same rules as an upload. */
create policy "Users can replace their own avatar"
  on storage.objects for update
  to authenticated
  using (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
  )
  with check (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
    and public.object_fits_bucket(bucket_id, metadata)
  );

/** Users can delete their own avatar folder's objects. */
create policy "Users can delete their own avatar"
  on storage.objects for delete
  to authenticated
  using (
    bucket_id = 'avatars'
    and storage.foldername(name) = array[(select auth.uid())::text]
  );

-- The policies' comments, in one block (see the note at the top of this file).
do $$ begin
  comment on policy "Users can see their own avatar folder" on storage.objects is
    'avatars: a signed-in user selects / lists only objects directly under {their user id}/.';
  comment on policy "Users can upload their own avatar" on storage.objects is
    'avatars: insert only {their user id}/avatar.{png|jpg|jpeg|webp|gif} with an allowed image type and size.';
  comment on policy "Users can replace their own avatar" on storage.objects is
    'avatars: update (overwrite) only their own avatar object, keeping the path and type rules.';
  comment on policy "Users can delete their own avatar" on storage.objects is
    'avatars: delete only objects directly under {their user id}/.';
exception when insufficient_privilege then
  raise notice 'policy comments skipped: storage.objects belongs to the storage admin here';
end $$;
