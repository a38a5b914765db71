-- The members CSV export reads every page by keyset: after the last row's (lower(email), id),
-- never by offset, so each page costs what the first does and the whole export grows linearly
-- with the members (an offset page re-reads and re-sorts every member before it). The order is
-- the members page's: lower(email), then id; members without an e-mail last, by id.
-- See docs/decisions/082-staff-pages-at-scale.md.

/**
 * Staff only: up to page_size members whose e-mail contains search (case-insensitive), after the
 * cursor (after_email, after_id): the email_key and user_id of the last row of the page before;
 * both null for the first page, after_email null with after_id set for a page among the members
 * without an e-mail. Definer: reads auth.users.
 *
 * The order is served by GoTrue's own index users_instance_id_email_idx (instance_id,
 * lower(email)): the migration role does not own auth.users and cannot index it. Every account
 * GoTrue makes has the nil instance id (each query of its internal/models/user.go asks for it), so
 * those come in index order, merged with any other row (another or no instance id: written by
 * SQL, usually none) found through users_instance_id_idx and sorted.
 */
create function private.staff_export_members(search text, after_email text, after_id uuid, page_size integer)
returns table (
  user_id uuid, email text, tier public.tier, tier_source text, purchase_count integer,
  created_at timestamptz, last_sign_in_at timestamptz, email_key text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := lower(coalesce(search, ''));
  v_found integer := 0;
begin
  if not private.is_staff() then
    raise exception 'only staff can list members' using errcode = '42501';
  end if;
  if page_size is null or page_size < 1 or page_size > 1000 then
    raise exception 'page_size must be between 1 and 1000' using errcode = '22023';
  end if;
  if after_email is not null and after_id is null then
    raise exception 'after_email needs after_id' using errcode = '22023';
  end if;
  -- Members with an e-mail, after the cursor (unless it is already past them).
  if after_email is not null or after_id is null then
    return query
      select m.id, m.email::text, ut.tier, private.tier_source_of(m.id),
        (select count(*)::integer from public.purchases p where p.user_id = m.id),
        m.created_at, m.last_sign_in_at, m.sort_key
      from (
        (select u.id, u.email, u.created_at, u.last_sign_in_at, lower(u.email) as sort_key
         from auth.users u
         where u.instance_id = '00000000-0000-0000-0000-000000000000'
           and lower(u.email) >= coalesce(after_email, '')
           and (after_email is null or (lower(u.email), u.id) > (after_email, after_id))
           and position(v_search in lower(u.email)) > 0
         order by lower(u.email), u.id
         limit page_size)
        union all
        (select u.id, u.email, u.created_at, u.last_sign_in_at, lower(u.email)
         from auth.users u
         where (u.instance_id > '00000000-0000-0000-0000-000000000000' or u.instance_id is null)
           and lower(u.email) >= coalesce(after_email, '')
           and (after_email is null or (lower(u.email), u.id) > (after_email, after_id))
           and position(v_search in lower(u.email)) > 0
         order by lower(u.email), u.id
         limit page_size)
        order by 5, 1
        limit page_size
      ) m
      left join public.user_tiers ut on ut.user_id = m.id
      order by m.sort_key, m.id;
    get diagnostics v_found = row_count;
  end if;
  -- Then members without an e-mail (phone sign-ins), by id; only an empty search matches them.
  if v_found < page_size and v_search = '' then
    return query
      select u.id, null::text, ut.tier, private.tier_source_of(u.id),
        (select count(*)::integer from public.purchases p where p.user_id = u.id),
        u.created_at, u.last_sign_in_at, null::text
      from auth.users u
      left join public.user_tiers ut on ut.user_id = u.id
      where u.email is null
        and (after_email is not null or after_id is null or u.id > after_id)
      order by u.id
      limit page_size - v_found;
  end if;
end
$$;

comment on function private.staff_export_members(text, text, uuid, integer) is
  'Staff only (else 42501): a keyset page of members whose e-mail contains search, after (after_email, after_id), by lower(email) then id. Called by public.staff_export_members().';
revoke execute on function private.staff_export_members(text, text, uuid, integer) from public, anon, authenticated, service_role;
grant execute on function private.staff_export_members(text, text, uuid, integer) to authenticated;

/** The app's rpc('staff_export_members'): the CSV export's pages. */
create function public.staff_export_members(
  search text default '', after_email text default null, after_id uuid default null, page_size integer default 1000
)
returns table (
  user_id uuid, email text, tier public.tier, tier_source text, purchase_count integer,
  created_at timestamptz, last_sign_in_at timestamptz, email_key text
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.staff_export_members(search, after_email, after_id, page_size)
$$;

comment on function public.staff_export_members(text, text, uuid, integer) is
  'Staff only (else 42501): up to page_size (1..1000) members whose e-mail contains search, case-insensitive, after the cursor (the previous page''s last email_key and user_id; null, null for the first), by lower(email) then id, members without an e-mail last. Security invoker over private.staff_export_members().';
revoke execute on function public.staff_export_members(text, text, uuid, integer) from public, anon, authenticated, service_role;
grant execute on function public.staff_export_members(text, text, uuid, integer) to authenticated;
