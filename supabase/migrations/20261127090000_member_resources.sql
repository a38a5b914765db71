-- /resources in one read: the member's tier and the files of the resources bucket that tier
-- opens, in one RPC the page calls the moment the sign-in answers, instead of a tier read and
-- one storage listing per card (each a CORS preflight and a request on a phone).
-- See docs/decisions/086-resources-in-one-read.md.

/**
 * The calling member's tier and the files their tier opens: every object of the resources
 * bucket directly inside a `{tier}/{slug}/` folder whose tier is the member's or below, the
 * first 100 of each folder by name, as a folder listing gives them (name, id, size, type).
 *
 * Security invoker: storage.objects is read under the caller's own storage policies, which
 * decide what a member sees (their tier and below; staff everything). The function is a
 * listing and nothing more, so it runs as Storage's list route does, with storage.operation
 * set to storage.object.list for its own duration (the policies allow members to list, never
 * to download or sign): it returns names and sizes, never bytes or links.
 */
create function public.member_resources()
returns jsonb
language sql
stable
security invoker
set search_path = ''
set "storage.operation" = 'storage.object.list'
as $$
  with opened as (
    select o.name, o.id, o.metadata,
      row_number() over (
        partition by split_part(o.name, '/', 1), split_part(o.name, '/', 2)
        order by o.name collate "C"
      ) as place
    from storage.objects o
    where o.bucket_id = 'resources'
      and array_length(string_to_array(o.name, '/'), 1) = 3
      and public.tier_rank(split_part(o.name, '/', 1)) <= (select public.current_tier_rank())
  )
  select jsonb_build_object(
    'tier', (select t.tier from public.user_tiers t where t.user_id = (select auth.uid())),
    'files', coalesce((
      select jsonb_agg(
        jsonb_build_object(
          'name', f.name,
          'id', f.id,
          'metadata', jsonb_build_object('size', f.metadata -> 'size', 'mimetype', f.metadata -> 'mimetype')
        )
        order by f.name collate "C")
      from opened f
      where f.place <= 100
    ), '[]'::jsonb)
  )
$$;

comment on function public.member_resources() is
  '/resources in one read: {tier, files: [{name ({tier}/{slug}/{file}), id, metadata: {size, mimetype}}]} for the caller, under their storage policies (as the list route).';
revoke execute on function public.member_resources() from public, anon, authenticated, service_role;
grant execute on function public.member_resources() to authenticated;
