-- Resources: the private bucket of paid files. Object names are {tier}/{card slug}/{file},
-- e.g. foundation/worksheets/book-planning-worksheet.pdf. Reading (download, signed URL,
-- list) needs the caller's tier rank >= the rank of the first folder; staff read
-- everything; only staff write, overwrite or delete.
--
-- The policy comments sit in one do-block that lets insufficient_privilege pass: storage.objects
-- belongs to supabase_storage_admin, and some hosted images refuse COMMENT ON POLICY to the
-- migration role ("must be owner of relation objects"), which would roll back the whole file.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
  'resources', 'resources', false, 209715200,
  array['application/pdf', 'application/epub+zip', 'application/x-mobipocket-ebook', 'audio/mpeg']
)
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

/**
 * resource_path_tier(name): the tier named by a well-formed resource object name, else null.
 * Well-formed: exactly three segments, a tier, a lowercase slug (a-z, 0-9, single hyphens),
 * and a file name that does not start with '.', has no control characters or backslashes,
 * ends in .pdf / .epub / .mobi / .mp3 and is at most 200 characters. So '..', empty
 * segments, extra folders and unknown tiers all give null.
 */
create function public.resource_path_tier(name text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when array_length(string_to_array(name, '/'), 1) = 3
      and public.tier_rank(split_part(name, '/', 1)) is not null
      and split_part(name, '/', 2) ~ '^[a-z0-9]+(-[a-z0-9]+)*$'
      and split_part(name, '/', 3) ~* '^[^./\\[:cntrl:]][^/\\[:cntrl:]]*\.(pdf|epub|mobi|mp3)$'
      and char_length(split_part(name, '/', 3)) <= 200
    then split_part(name, '/', 1)
  end
$$;

comment on function public.resource_path_tier(text) is
  'Storage policy helper: the tier of a well-formed {tier}/{slug}/{file.pdf|epub|mobi|mp3} name, else null.';

revoke execute on function public.resource_path_tier(text) from public, anon, authenticated;
grant execute on function public.resource_path_tier(text) to authenticated, service_role;

/**
 * Subscribers can read the resources of their tier and below (download, sign, list); staff
 * read everything in the bucket, including anything malformed left from before.
 */
create policy "Subscribers can read resources of their tier and below"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'resources'
    and (
      public.tier_rank(public.resource_path_tier(name)) <= (select public.current_tier_rank())
      or (select public.is_staff())
    )
  );

/** Staff can upload resources to a well-formed path with an allowed type and size. */
create policy "Staff can upload resources"
  on storage.objects for insert
  to authenticated
  with check (
    bucket_id = 'resources'
    and (select public.is_staff())
    and public.resource_path_tier(name) is not null
    and public.object_fits_bucket(bucket_id, metadata)
  );

/** Staff can replace resources, under the same rules as an upload. */
create policy "Staff can replace resources"
  on storage.objects for update
  to authenticated
  using (
    bucket_id = 'resources'
    and (select public.is_staff())
  )
  with check (
    bucket_id = 'resources'
    and (select public.is_staff())
    and public.resource_path_tier(name) is not null
    and public.object_fits_bucket(bucket_id, metadata)
  );

/** Staff can delete resources. */
create policy "Staff can delete resources"
  on storage.objects for delete
  to authenticated
  using (
    bucket_id = 'resources'
    and (select public.is_staff())
  );

-- The policies' comments, in one block (see the note at the top of this file).
do $$ begin
  comment on policy "Subscribers can read resources of their tier and below" on storage.objects is
    'resources: select when the caller''s tier rank >= the rank of the object''s tier folder, or the caller is staff.';
  comment on policy "Staff can upload resources" on storage.objects is
    'resources: only staff insert, only at {tier}/{slug}/{file.pdf|epub|mobi|mp3}, only allowed types and sizes.';
  comment on policy "Staff can replace resources" on storage.objects is
    'resources: only staff update (overwrite), keeping the path, type and size rules.';
  comment on policy "Staff can delete resources" on storage.objects is
    'resources: only staff delete.';
exception when insufficient_privilege then
  raise notice 'policy comments skipped: storage.objects belongs to the storage admin here';
end $$;
