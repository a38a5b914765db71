-- Profiles: a display name and avatar per user. id is the user id (check user_id = id), so
-- the app can insert {id, user_id, ...} and select / update "where user_id = me".

/** One profile per user; written by its owner only, never deleted from the client. */
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  user_id uuid not null unique references auth.users (id) on delete cascade,
  display_name text check (char_length(display_name) <= 80),
  avatar_url text check (char_length(avatar_url) <= 2048 and avatar_url ~ '^https?://'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profiles_id_is_user_id check (user_id = id)
);

comment on table public.profiles is
  'Display name and avatar URL of a user. id = user_id = auth.users.id. Owner selects, inserts and updates display_name / avatar_url; nobody deletes from the client.';
comment on column public.profiles.display_name is 'Shown in the profile menu; null shows "No name set". At most 80 characters.';
comment on column public.profiles.avatar_url is 'Public URL of {user id}/avatar.{ext} in the avatars bucket (http(s) only).';

alter table public.profiles enable row level security;

-- Revoke the platform's default grants, then give back only what the app does: read, insert
-- the identity columns plus content, update content columns. No delete, no update of
-- id / user_id / timestamps (so supabase-js upsert, which rewrites every sent column, is
-- refused: insert once, then update).
revoke all on table public.profiles from public, anon, authenticated;
grant select on table public.profiles to authenticated;
grant insert (id, user_id, display_name, avatar_url) on table public.profiles to authenticated;
grant update (display_name, avatar_url) on table public.profiles to authenticated;
grant all on table public.profiles to service_role;

/** Users can read their own profile (the realtime subscription relies on this too). */
create policy "Users can read their own profile"
  on public.profiles for select
  to authenticated
  using (user_id = (select auth.uid()));
comment on policy "Users can read their own profile" on public.profiles is
  'A signed-in user selects only the row whose user_id is theirs.';

/** Users can create their own profile, whose id must be their user id. */
create policy "Users can create their own profile"
  on public.profiles for insert
  to authenticated
  with check (user_id = (select auth.uid()) and id = (select auth.uid()));
comment on policy "Users can create their own profile" on public.profiles is
  'A signed-in user inserts only a row with id = user_id = their user id.';

/** Users can update their own profile and cannot hand it to someone else. */
create policy "Users can update their own profile"
  on public.profiles for update
  to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
comment on policy "Users can update their own profile" on public.profiles is
  'A signed-in user updates only their own row (column grants limit it to display_name and avatar_url).';

/**
 * Keeps id, user_id and created_at fixed and stamps updated_at, whoever updates the row
 * (belt and braces behind the column grants, also for service_role scripts).
 */
create function public.profiles_before_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.id is distinct from old.id or new.user_id is distinct from old.user_id then
    raise exception 'profiles.id and profiles.user_id cannot change' using errcode = '42501';
  end if;
  new.created_at := old.created_at;
  new.updated_at := now();
  return new;
end
$$;

comment on function public.profiles_before_update() is
  'Trigger: refuses changes to profiles.id / user_id, keeps created_at, stamps updated_at.';

revoke execute on function public.profiles_before_update() from public, anon, authenticated;

create trigger profiles_before_update
  before update on public.profiles
  for each row execute function public.profiles_before_update();
