-- Publish profile changes to Realtime (postgres_changes), so the profile menu follows a
-- rename or new avatar without a reload. Realtime applies the profiles select policy to
-- each subscriber, so a user only receives their own row's changes.
alter publication supabase_realtime add table public.profiles;
