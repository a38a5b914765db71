-- User tiers: which bundle a user owns. Users read their own row; nobody writes it from the
-- client. Tiers change only through service_role (e.g. a purchase webhook, the dashboard) or
-- staff calling public.set_user_tier(), and every change is written to public.tier_audit.

/** At most one tier per user. */
create table public.user_tiers (
  user_id uuid primary key references auth.users (id) on delete cascade,
  tier public.tier not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.user_tiers is
  'The tier a user owns (at most one row per user). Readable by its owner; written only by service_role or staff via set_user_tier(); audited in tier_audit.';

alter table public.user_tiers enable row level security;

-- No insert / update / delete for anon or authenticated, whatever the policies say.
revoke all on table public.user_tiers from public, anon, authenticated;
grant select on table public.user_tiers to authenticated;
grant all on table public.user_tiers to service_role;

/** Users can read their own tier. */
create policy "Users can read their own tier"
  on public.user_tiers for select
  to authenticated
  using (user_id = (select auth.uid()));
comment on policy "Users can read their own tier" on public.user_tiers is
  'A signed-in user selects only the row whose user_id is theirs.';

/** Every change of any user's tier, whoever made it. */
create table public.tier_audit (
  id bigint generated always as identity primary key,
  target_user uuid not null,
  old_tier public.tier,
  new_tier public.tier,
  changed_by uuid,
  changed_by_role text not null,
  changed_at timestamptz not null default now()
);

comment on table public.tier_audit is
  'Append-only log of tier changes: who (auth.uid(), null for SQL / service_role), whose, from and to. No API role can read or write it. Kept when a user is deleted.';

alter table public.tier_audit enable row level security;
revoke all on table public.tier_audit from public, anon, authenticated;
grant select on table public.tier_audit to service_role;
-- The identity sequence got the default grants too (usage, select, update: nextval / setval).
-- Only the definer trigger below inserts audit rows, so no API role needs it.
revoke all on sequence public.tier_audit_id_seq from public, anon, authenticated, service_role;

/**
 * Writes one tier_audit row per insert / update / delete on user_tiers. Security definer so
 * the audit row is written whoever changes the tier, while no API role can write the log.
 */
create function public.audit_user_tier_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.tier_audit (target_user, old_tier, new_tier, changed_by, changed_by_role)
  values (
    coalesce(new.user_id, old.user_id),
    case when tg_op = 'INSERT' then null else old.tier end,
    case when tg_op = 'DELETE' then null else new.tier end,
    (select auth.uid()),
    coalesce((select auth.role()), session_user::text)
  );
  return null;
end
$$;

comment on function public.audit_user_tier_change() is
  'Trigger: records every change of user_tiers in tier_audit.';

revoke execute on function public.audit_user_tier_change() from public, anon, authenticated;

create trigger user_tiers_audit
  after insert or update or delete on public.user_tiers
  for each row execute function public.audit_user_tier_change();

/** Stamps updated_at and keeps created_at on every update. */
create function public.user_tiers_before_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.created_at := old.created_at;
  new.updated_at := now();
  return new;
end
$$;

comment on function public.user_tiers_before_update() is 'Trigger: stamps user_tiers.updated_at.';
revoke execute on function public.user_tiers_before_update() from public, anon, authenticated;

create trigger user_tiers_before_update
  before update on public.user_tiers
  for each row execute function public.user_tiers_before_update();

/**
 * The tier rank of the calling user, or null without a tier. Security invoker: it reads
 * user_tiers through the caller's own select policy.
 */
create function public.current_tier_rank()
returns integer
language sql
stable
set search_path = ''
as $$
  select public.tier_rank(t.tier::text)
  from public.user_tiers t
  where t.user_id = (select auth.uid())
$$;

comment on function public.current_tier_rank() is
  'Rank (0..3) of the calling user''s tier, null without one. Used by the resources storage policy.';

revoke execute on function public.current_tier_rank() from public, anon, authenticated;
grant execute on function public.current_tier_rank() to authenticated, service_role;

/**
 * set_user_tier(target_user, new_tier): the one way staff change a tier from the app. Refused
 * (42501) unless the caller is staff; new_tier null removes the user's tier. The audit row is
 * written by the trigger, with changed_by = the staff member.
 */
create function public.set_user_tier(target_user uuid, new_tier public.tier)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.is_staff() then
    raise exception 'only staff can change tiers' using errcode = '42501';
  end if;
  if target_user is null then
    raise exception 'target_user is required' using errcode = '22004';
  end if;
  if new_tier is null then
    delete from public.user_tiers where user_id = target_user;
  else
    insert into public.user_tiers (user_id, tier)
    values (target_user, new_tier)
    on conflict (user_id) do update set tier = excluded.tier
    where public.user_tiers.tier is distinct from excluded.tier;
  end if;
end
$$;

comment on function public.set_user_tier(uuid, public.tier) is
  'Staff only: sets (or with null removes) a user''s tier; audited in tier_audit.';

revoke execute on function public.set_user_tier(uuid, public.tier) from public, anon, authenticated, service_role;
grant execute on function public.set_user_tier(uuid, public.tier) to authenticated;
