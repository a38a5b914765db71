-- The database owns the profile row: a trigger on auth.users creates one for every new user
-- (Supabase's documented handle_new_user pattern), existing users get theirs here, and users
-- only ever update it. The client no longer needs "is there a row? insert, and on a race
-- retry as update", so its insert policy and grant go.

/**
 * Trigger: creates the profile row (id = user_id = the new user's id, no name, no avatar)
 * for each new auth.users row. Security definer, owned by the migration role (which owns
 * public.profiles), because the auth server inserts users as a role with no privilege on
 * public tables.
 */
create function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, user_id) values (new.id, new.id);
  return new;
end
$$;

comment on function public.handle_new_user() is
  'Trigger on auth.users: inserts the new user''s profile row (id = user_id = auth.users.id).';

-- A trigger function needs no execute grant to fire; nobody calls it directly.
revoke execute on function public.handle_new_user() from public, anon, authenticated, service_role;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- Commenting on a trigger needs ownership of auth.users, which the migration role has locally
-- but may not have on a hosted project: skip the comment there rather than fail the migration.
do $$ begin
  comment on trigger on_auth_user_created on auth.users is
    'Creates public.profiles row for each new user (public.handle_new_user).';
exception when insufficient_privilege then null;
end $$;

-- Backfill: users created before this migration get an empty profile row too.
insert into public.profiles (id, user_id)
select u.id, u.id from auth.users u
on conflict do nothing;

-- Users only update their own row now: no insert policy, no insert grant.
drop policy "Users can create their own profile" on public.profiles;
revoke insert on table public.profiles from authenticated;
revoke insert (id, user_id, display_name, avatar_url) on table public.profiles from authenticated;

comment on table public.profiles is
  'Display name and avatar URL of a user. id = user_id = auth.users.id. Created for every user by the on_auth_user_created trigger; the owner selects it and updates display_name / avatar_url; nobody inserts or deletes from the client.';
