-- Shared helpers for the storage policies. The storage server enforces a bucket's
-- file_size_limit and allowed_mime_types itself (on the platform and in the local stand-in);
-- these let the policies refuse the same things again from the object's metadata, so a
-- write that somehow bypasses the server still cannot store an SVG avatar or a huge file.

/**
 * object_fits_bucket(bucket, metadata): false when metadata names a mimetype the bucket does
 * not allow or a size above its limit. Missing keys pass (the storage server writes the
 * object row before it knows them, and checks them itself). Security definer because API
 * roles cannot read storage.buckets; it only reveals the bucket's public limits.
 */
create function public.object_fits_bucket(bucket text, metadata jsonb)
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
        or metadata -> 'size' is null
        or (
          jsonb_typeof(metadata -> 'size') = 'number'
          and (b.file_size_limit is null or (metadata ->> 'size')::numeric <= b.file_size_limit)
        )
      )
    from storage.buckets b
    where b.id = bucket
  ), false)
$$;

comment on function public.object_fits_bucket(text, jsonb) is
  'Storage policy helper: false when object metadata has a mimetype or size the bucket does not allow.';

revoke execute on function public.object_fits_bucket(text, jsonb) from public, anon, authenticated;
grant execute on function public.object_fits_bucket(text, jsonb) to authenticated, service_role;
