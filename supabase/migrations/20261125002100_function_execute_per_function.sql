-- Issue 21: EXECUTE is taken away per function, not by a global default.
--
-- 20261123000200 ran `alter default privileges for role postgres revoke execute on functions
-- from public` with no schema, because PostgreSQL cannot take PUBLIC's EXECUTE away per
-- schema (per-schema default privileges only add to the global ones). That reached every
-- function postgres creates later in any schema: pgTAP (`supabase test db` then failed with
-- "permission denied for function results_eq"), and any extension the owner enables later
-- from the dashboard or the SQL editor, whose functions anon and authenticated could no
-- longer call.
--
-- So the global default goes back to PostgreSQL's own (PUBLIC may execute new functions),
-- and every function of ours states its privileges below, all in one place. The guarantee
-- the global default stood in for is now a test: supabase/tests/database/privileges.test.sql
-- and supabase/tests/schema-guards.test.ts fail when any function in a schema of ours is
-- executable by anon or authenticated without being on their short, commented allow-list.
-- The per-schema defaults in public (nothing for anon and authenticated on new tables,
-- sequences and functions) stay: those only remove grants the platform itself adds there.

alter default privileges for role postgres grant execute on functions to public;

-- The same for supabase_admin where the migration role may change its defaults (not on
-- hosted projects, where 20261123000200 skipped it as well).
do $$ begin
  alter default privileges for role supabase_admin grant execute on functions to public;
exception when insufficient_privilege or undefined_object then
  raise notice 'default privileges of supabase_admin left as they are: %', sqlerrm;
end $$;

-- Every function of ours: nobody but its owner first, then exactly who calls it.
-- (Trigger functions cannot be called directly; they are closed all the same.)
revoke execute on function
  public.audit_user_tier_change(),
  public.current_tier_rank(),
  public.grant_tier(uuid, public.tier, text),
  public.handle_new_user(),
  public.is_own_avatar_path(text),
  public.is_staff(),
  public.profiles_before_update(),
  public.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz),
  public.record_refund(text, text, text, timestamptz),
  public.resource_path_tier(text),
  public.revoke_tier(uuid, text),
  public.staff_list_members(text, integer, integer),
  public.staff_member_detail(uuid),
  public.tier_rank(text),
  public.user_tiers_before_update(),
  private.account_for_email(text),
  private.attach_purchases_of_confirmed_email(),
  private.checked_reason(text),
  private.delete_avatar_of_deleted_user(),
  private.grant_tier(uuid, public.tier, text),
  private.is_staff(),
  private.object_fits_bucket(text, jsonb),
  private.purchases_after_change(),
  private.purchases_before_update(),
  private.recompute_user_tier(uuid, text, text, boolean),
  private.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz),
  private.record_refund(text, text, text, timestamptz),
  private.revoke_tier(uuid, text),
  private.staff_list_members(text, integer, integer),
  private.staff_member_detail(uuid),
  private.tier_grants_after_change(),
  private.tier_source_of(uuid)
from public, anon, authenticated;

-- anon: whether the caller is staff (false for anon) and the tier order.
grant execute on function public.is_staff(), public.tier_rank(text), private.is_staff() to anon;

-- authenticated: the app's RPCs (is_staff, the staff RPCs), what its policies call (a policy
-- runs as the caller), and the private functions the security invoker wrappers call.
grant execute on function
  public.current_tier_rank(),
  public.grant_tier(uuid, public.tier, text),
  public.is_own_avatar_path(text),
  public.is_staff(),
  public.resource_path_tier(text),
  public.revoke_tier(uuid, text),
  public.staff_list_members(text, integer, integer),
  public.staff_member_detail(uuid),
  public.tier_rank(text),
  private.checked_reason(text),
  private.grant_tier(uuid, public.tier, text),
  private.is_staff(),
  private.object_fits_bucket(text, jsonb),
  private.revoke_tier(uuid, text),
  private.staff_list_members(text, integer, integer),
  private.staff_member_detail(uuid)
to authenticated;

-- service_role keeps what earlier migrations gave it (the webhook RPCs, the helpers its SQL
-- may call); nothing here changes it.
