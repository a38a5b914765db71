-- Staff: the server-side notion of who may manage tiers and paid files. Membership lives in
-- a table no API role can touch, never in user_metadata (which every user can edit). The
-- owner makes someone staff with one line, in the SQL editor or `psql` as postgres:
--   insert into public.staff (user_id) select id from auth.users where email = 'someone@example.com';

/** One row per staff member. No client privileges at all: only postgres / service_role write it. */
create table public.staff (
  user_id uuid primary key references auth.users (id) on delete cascade,
  note text check (char_length(note) <= 200),
  created_at timestamptz not null default now()
);

comment on table public.staff is
  'Users who may manage tiers and upload paid resources. Written only by the owner (postgres / service_role); no API role can read or write it.';

alter table public.staff enable row level security;

-- Supabase grants every new public table to the API roles by default; take it back.
revoke all on table public.staff from public, anon, authenticated;
grant all on table public.staff to service_role;

/**
 * is_staff(): whether the calling user is staff. Security definer because callers cannot
 * read public.staff; it reveals only their own membership. Anonymous callers get false.
 */
create function public.is_staff()
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

comment on function public.is_staff() is
  'True when the calling user (auth.uid()) is staff. Called by the app (rpc is_staff) and by policies.';

revoke execute on function public.is_staff() from public, anon, authenticated;
grant execute on function public.is_staff() to anon, authenticated, service_role;
