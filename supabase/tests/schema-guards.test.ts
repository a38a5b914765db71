// Guards over the whole schema, so a future migration cannot quietly weaken it: RLS on every
// public table, no client write path to tiers or staff, security definer functions pinned
// to an empty search_path, the tier order shared with the app, buckets in step with
// config.toml, and the demo accounts a newcomer signs in with.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiers } from '../../src/content/tiers';
import { migrationsDir, seedFile } from '../../packages/supabase-stand-in/db.mjs';
import { demo } from './helpers';
import { createServerDatabase, type Database, type Queryable } from './server-database';

let db: Database;

beforeAll(async () => {
  db = await createServerDatabase();
});

afterAll(async () => {
  await db?.close();
});

const writePrivileges = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'];

/** Tables in public (and storage.objects) without row level security. */
async function tablesWithoutRls(): Promise<string[]> {
  const { rows } = await db.query<{ table: string }>(`
    select n.nspname || '.' || c.relname as table
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and not c.relrowsecurity
      and (n.nspname = 'public' or (n.nspname = 'storage' and c.relname = 'objects'))
    order by 1`);
  return rows.map((row) => row.table);
}

describe('row level security', () => {
  it('is enabled on every table in public (and on storage.objects)', async () => {
    expect(await tablesWithoutRls()).toEqual([]);
  });

  it('the check above catches a table created without it (probe, rolled back)', async () => {
    await db.query('begin');
    try {
      await db.query('create table public.rls_probe (id int primary key)');
      await db.query('create table public.rls_probe_parted (id int) partition by range (id)');
      expect(await tablesWithoutRls()).toEqual(['public.rls_probe', 'public.rls_probe_parted']);
    } finally {
      await db.query('rollback');
    }
    expect(await tablesWithoutRls()).toEqual([]);
  });

  it('covers the tables the app relies on', async () => {
    const { rows } = await db.query<{ relname: string }>(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by relname`,
    );
    expect(rows.map((r) => r.relname)).toEqual([
      'account_erasures',
      'benefit_audit',
      'buyer_invitations',
      'catalog_audit',
      'catalog_products',
      'catalog_provider_ids',
      'coaching_adjustments',
      'coaching_allowances',
      'coaching_bookings',
      'coaching_private_notes',
      'download_log',
      'live_sessions',
      'media_progress',
      'member_benefits',
      'member_mail',
      'member_preferences',
      'owner_settings',
      'profiles',
      'purchase_campaigns',
      'purchases',
      'staff',
      'tier_audit',
      'tier_grants',
      'timed_benefits',
      'unmatched_sales',
      'unstampable_files',
      'user_tiers',
      'webhook_events',
    ]);
  });
});

/**
 * Who may execute which function of ours. Every function in a schema of ours (any schema but
 * the platform's and the extensions') that anon or authenticated may execute must be listed
 * here, and everything listed must be executable: the explicit per-function grants of the
 * migrations stand in for a global default privilege. Trigger functions are
 * left out: nobody can call one directly. The same list guards the real server in
 * supabase/tests/database/privileges.test.sql; keep the two equal.
 */
const executeAllowList: Record<'anon' | 'authenticated', string[]> = {
  // Whether the caller is staff (false for anon), and the tier order.
  anon: ['private.is_staff()', 'public.is_staff()', 'public.tier_rank(text)'],
  authenticated: [
    // The security invoker wrappers' private halves: they check staff themselves (42501).
    'private.checked_reason(text)',
    'private.grant_tier(uuid,tier,text)',
    // Called by policies, which run as the caller.
    'private.is_staff()',
    'private.object_fits_bucket(text,jsonb)',
    'private.revoke_tier(uuid,text)',
    'private.save_media_progress(text,double precision,double precision)',
    'private.set_playback_rate(numeric)',
    'private.member_coaching()',
    'private.member_benefits()',
    'private.member_live_sessions()',
    'private.session_join_link(uuid)',
    'private.staff_adjust_coaching(uuid,integer,text)',
    'private.staff_assign_booking(uuid,uuid)',
    'private.staff_cancel_live_session(uuid)',
    'private.staff_change_benefit(uuid,text,text,integer,text)',
    'private.staff_download_flags(integer,integer)',
    'private.staff_export_members(text,text,uuid,integer)',
    'private.staff_list_members(text,integer,integer)',
    'private.staff_live_overview()',
    'private.staff_mail_status()',
    'private.staff_member_coaching(uuid)',
    'private.staff_member_benefits(uuid)',
    'private.staff_member_detail(uuid)',
    'private.staff_save_booking_notes(uuid,text,text)',
    'private.staff_save_coaching(tier,integer,integer,text)',
    'private.staff_save_live_session(uuid,text,text,timestamp with time zone,integer,text,text,text)',
    'private.staff_save_timed_benefit(text,integer,text)',
    'private.staff_resend_invitation(text)',
    'private.staff_catalog()',
    'private.staff_dashboard()',
    'private.staff_map_provider_id(text,text,tier)',
    'private.staff_save_product(tier,jsonb)',
    'private.staff_visits(integer)',
    // Policies (resources, avatars) and the app's RPCs.
    'public.current_tier_rank()',
    'public.grant_tier(uuid,tier,text)',
    'public.is_own_avatar_path(text)',
    'public.is_staff()',
    'public.media_finished(double precision,double precision)',
    'public.member_coaching()',
    'public.member_benefits()',
    'public.member_live_sessions()',
    'public.member_resources()',
    'public.resource_path_tier(text)',
    'public.revoke_tier(uuid,text)',
    'public.save_media_progress(text,double precision,double precision)',
    'public.set_playback_rate(numeric)',
    'public.session_join_link(uuid)',
    'public.staff_adjust_coaching(uuid,integer,text)',
    'public.staff_assign_booking(uuid,uuid)',
    'public.staff_cancel_live_session(uuid)',
    'public.staff_change_benefit(uuid,text,text,integer,text)',
    'public.staff_download_flags(integer,integer)',
    'public.staff_download_totals()',
    'public.staff_export_members(text,text,uuid,integer)',
    'public.staff_list_members(text,integer,integer)',
    'public.staff_live_overview()',
    'public.staff_mail_status()',
    'public.staff_member_coaching(uuid)',
    'public.staff_member_benefits(uuid)',
    'public.staff_member_detail(uuid)',
    'public.staff_save_booking_notes(uuid,text,text)',
    'public.staff_save_coaching(tier,integer,integer,text)',
    'public.staff_save_live_session(uuid,text,text,timestamp with time zone,integer,text,text,text)',
    'public.staff_save_timed_benefit(text,integer,text)',
    'public.staff_resend_invitation(text)',
    'public.staff_catalog()',
    'public.staff_dashboard()',
    'public.staff_map_provider_id(text,text,tier)',
    'public.staff_save_product(tier,jsonb)',
    'public.staff_visits(integer)',
    'public.tier_rank(text)',
  ],
};

/** Functions anon or authenticated may execute in every schema that is not the platform's. */
const executableByApiRoles = `
  select r.role, n.nspname || '.' || p.proname || '(' || replace(oidvectortypes(p.proargtypes), ', ', ',') || ')' as fn
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  cross join unnest(array['anon', 'authenticated']) as r(role)
  where n.nspname not in ('auth', 'storage', 'realtime', 'extensions', 'graphql', 'graphql_public', 'vault',
      'pgsodium', 'pgsodium_masks', 'net', 'cron', 'pgbouncer', 'supabase_functions', 'supabase_migrations',
      'information_schema')
    and n.nspname not like 'pg\\_%'
    and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
    and has_function_privilege(r.role, p.oid, 'EXECUTE')`;

describe('privileges', () => {
  for (const role of ['anon', 'authenticated']) {
    it(`${role} holds no write privilege on user_tiers, on the table or any column`, async () => {
      const { rows } = await db.query<{ privilege: string; table_level: boolean; any_column: boolean }>(
        `select p as privilege,
                has_table_privilege($1, 'public.user_tiers', p) as table_level,
                case when p in ('INSERT', 'UPDATE', 'REFERENCES')
                  then has_any_column_privilege($1, 'public.user_tiers', p) else false end as any_column
         from unnest($2::text[]) as p`,
        [role, writePrivileges],
      );
      expect(rows.filter((r) => r.table_level || r.any_column)).toEqual([]);
    });

    it(`${role} holds no privilege at all on staff and tier_audit`, async () => {
      const { rows } = await db.query<{ t: string; p: string }>(
        `select t, p from unnest(array['public.staff', 'public.tier_audit']) as t, unnest($2::text[]) as p
         where has_table_privilege($1, t, p) or (p in ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES') and has_any_column_privilege($1, t, p))`,
        [role, [...writePrivileges, 'SELECT']],
      );
      expect(rows).toEqual([]);
    });
  }

  it('anon holds no privilege on any public table but the select of the catalog’s public columns', async () => {
    const { rows } = await db.query(
      `select c.relname, p from pg_class c, unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) as p
       where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm')
         and (has_table_privilege('anon', c.oid, p) or (p in ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES') and has_any_column_privilege('anon', c.oid, p)))`,
    );
    expect(rows).toEqual([{ relname: 'catalog_products', p: 'SELECT' }]);
    const columns = await db.query<{ attname: string }>(
      `select a.attname from pg_attribute a
       where a.attrelid = 'public.catalog_products'::regclass and a.attnum > 0 and not a.attisdropped
         and has_column_privilege('anon', a.attrelid, a.attnum, 'SELECT') order by a.attnum`,
    );
    expect(columns.rows.map((r) => r.attname)).toEqual([
      'tier',
      'name',
      'price_cents',
      'total_value_cents',
      'total_value_is_floor',
      'savings_cents',
      'savings_is_floor',
      'checkout_url',
      'sales_video_url',
    ]);
  });

  it('no API role holds any privilege on a public sequence (tier_audit ids come only from the audit trigger)', async () => {
    const { rows } = await db.query(
      `select c.oid::regclass::text as sequence, r as role, p from pg_class c,
              unnest(array['anon', 'authenticated', 'service_role']) as r, unnest(array['USAGE', 'SELECT', 'UPDATE']) as p
       where c.relnamespace = 'public'::regnamespace and c.relkind = 'S' and has_sequence_privilege(r, c.oid, p)
       order by 1, 2, 3`,
    );
    expect(rows).toEqual([]);
  });

  it('no API role may insert into profiles, on the table or any column (the database creates the rows)', async () => {
    const { rows } = await db.query<{ role: string; table_level: boolean; any_column: boolean }>(
      `select r as role, has_table_privilege(r, 'public.profiles', 'INSERT') as table_level,
              has_any_column_privilege(r, 'public.profiles', 'INSERT') as any_column
       from unnest(array['anon', 'authenticated']) r order by r`,
    );
    expect(rows).toEqual([
      { role: 'anon', table_level: false, any_column: false },
      { role: 'authenticated', table_level: false, any_column: false },
    ]);
    const policies = await db.query<{ polname: string }>(
      `select polname from pg_policy where polrelid = 'public.profiles'::regclass and polcmd in ('a', '*')`,
    );
    expect(policies.rows).toEqual([]);
  });

  it('authenticated may update only display_name and avatar_url of profiles, and never delete', async () => {
    const { rows } = await db.query<{ attname: string }>(
      `select attname from pg_attribute
       where attrelid = 'public.profiles'::regclass and attnum > 0 and not attisdropped
         and has_column_privilege('authenticated', 'public.profiles', attname, 'UPDATE') order by attname`,
    );
    expect(rows.map((r) => r.attname)).toEqual(['avatar_url', 'display_name']);
    const del = await db.query<{ d: boolean }>(
      `select has_table_privilege('authenticated', 'public.profiles', 'DELETE') as d`,
    );
    expect(del.rows).toEqual([{ d: false }]);
  });

  it('every security definer function pins search_path to empty, and there are only these', async () => {
    const { rows } = await db.query<{ fn: string; config: string[] | null }>(
      `select p.oid::regprocedure::text as fn, p.proconfig as config from pg_proc p
       where p.pronamespace = 'public'::regnamespace and p.prosecdef order by 1`,
    );
    expect(rows.map((r) => r.fn)).toEqual(['audit_user_tier_change()', 'handle_new_user()']);
    for (const row of rows) expect(row.config, row.fn).toContain('search_path=""');
  });

  it("the helpers that need their owner's rights live in private, each pinning search_path to empty", async () => {
    const { rows } = await db.query<{ fn: string; definer: boolean; config: string[] | null }>(
      `select p.oid::regprocedure::text as fn, p.prosecdef as definer, p.proconfig as config from pg_proc p
       where p.pronamespace = 'private'::regnamespace order by 1`,
    );
    expect(rows.map((r) => [r.fn, r.definer])).toEqual([
      ['private.account_for_email(text)', true],
      ['private.attach_purchases_of_confirmed_email()', true],
      ['private.audit_catalog_change()', true],
      ['private.authorize_download(uuid,text)', true],
      ['private.benefits_follow_tier()', true],
      ['private.booking_member(text,text)', true],
      ['private.catalog_audit_changes(jsonb,jsonb)', false],
      ['private.catalog_cents(jsonb,text,text,boolean)', false],
      ['private.catalog_field_error(text,text,text)', false],
      ['private.catalog_lock_key()', false],
      ['private.catalog_match(jsonb)', true],
      ['private.catalog_set_ids(tier,jsonb)', true],
      ['private.catalog_url(text,text,text,boolean)', false],
      ['private.checked_reason(text)', false],
      ['private.claim_due_invitations(integer)', true],
      ['private.claim_invitation(text)', true],
      ['private.claim_member_mail(integer)', true],
      ['private.coaching_allowance(uuid)', true],
      ['private.coaching_used(uuid)', true],
      ['private.count_visits(jsonb)', true],
      ['private.dashboard_sales(text,date)', true],
      ['private.delete_avatar_of_deleted_user()', true],
      ['private.detach_purchases_of_deleted_user()', true],
      ['private.enqueue_member_mail(timestamp with time zone)', true],
      ['private.enqueue_session_notice(uuid,text,jsonb)', true],
      ['private.finish_invitation(text,uuid,text,text)', true],
      ['private.finish_member_mail(uuid,text,text,integer[])', true],
      ['private.forget_password_set_before_confirmation()', true],
      ['private.grant_tier(uuid,tier,text)', true],
      ['private.holds_benefit(uuid,text,timestamp with time zone)', true],
      ['private.invitation_accepted()', true],
      ['private.is_staff()', true],
      ['private.is_time_zone(text)', false],
      ['private.log_media_play(uuid,uuid,text,text,inet,text)', true],
      ['private.mark_booking(text,text,text,uuid,text,text,text)', true],
      ['private.member_benefits()', true],
      ['private.member_coaching()', true],
      ['private.member_live_sessions()', true],
      ['private.note_password_set_in_transaction()', true],
      ['private.object_fits_bucket(text,jsonb)', true],
      ['private.owner_time_zone()', false],
      ['private.purchases_after_change()', true],
      ['private.purchases_before_update()', false],
      ['private.purchases_need_invitation()', true],
      ['private.recompute_user_tier(uuid,text,text,boolean)', true],
      [
        'private.record_booking(text,text,text,text,text,text,text,timestamp with time zone,timestamp with time zone,text,timestamp with time zone)',
        true,
      ],
      ['private.record_catalog_refund(text,text,text,timestamp with time zone,jsonb)', true],
      ['private.record_catalog_sale(text,text,text,text,jsonb,bigint,text,timestamp with time zone)', true],
      ['private.record_purchase(text,text,text,text,text,tier,bigint,text,timestamp with time zone)', true],
      ['private.record_purchase_campaign(text,text,text,text,text,text)', true],
      ['private.record_refund(text,text,text,timestamp with time zone)', true],
      ['private.record_sale(text,text,text,text,text,tier,bigint,text,timestamp with time zone)', true],
      ['private.request_site_build()', true],
      ['private.resolve_unmatched_sales()', true],
      ['private.retry_invitation(text,uuid,text,integer[])', true],
      ['private.revoke_tier(uuid,text)', true],
      ['private.roll_up_visits()', false],
      ['private.save_media_progress(text,double precision,double precision)', true],
      ['private.session_holders(uuid)', true],
      ['private.session_join_link(uuid)', true],
      ['private.session_joinable(timestamp with time zone,integer,timestamp with time zone)', false],
      ['private.session_mail_payload(uuid,jsonb)', true],
      ['private.set_playback_rate(numeric)', true],
      ['private.staff_adjust_coaching(uuid,integer,text)', true],
      ['private.staff_assign_booking(uuid,uuid)', true],
      ['private.staff_cancel_live_session(uuid)', true],
      ['private.staff_catalog()', true],
      ['private.staff_change_benefit(uuid,text,text,integer,text)', true],
      ['private.staff_dashboard()', true],
      ['private.staff_download_flags(integer,integer)', true],
      ['private.staff_export_members(text,text,uuid,integer)', true],
      ['private.staff_list_members(text,integer,integer)', true],
      ['private.staff_live_overview()', true],
      ['private.staff_mail_status()', true],
      ['private.staff_map_provider_id(text,text,tier)', true],
      ['private.staff_member_benefits(uuid)', true],
      ['private.staff_member_coaching(uuid)', true],
      ['private.staff_member_detail(uuid)', true],
      ['private.staff_resend_invitation(text)', true],
      ['private.staff_save_booking_notes(uuid,text,text)', true],
      ['private.staff_save_coaching(tier,integer,integer,text)', true],
      ['private.staff_save_live_session(uuid,text,text,timestamp with time zone,integer,text,text,text)', true],
      ['private.staff_save_product(tier,jsonb)', true],
      ['private.staff_save_timed_benefit(text,integer,text)', true],
      ['private.staff_visits(integer)', true],
      ['private.stamped_copies_to_expire(timestamp with time zone,integer)', true],
      ['private.tier_grants_after_change()', true],
      ['private.tier_source_of(uuid)', true],
      ['private.visit_code(text,text,integer)', false],
      ['private.visit_count_problem(jsonb)', false],
      ['private.visit_figures(text,date,date,date)', false],
      ['private.visit_groups_of(date,date)', false],
      ['private.visit_salt(date)', false],
      ['private.visit_takes_over(text,text,text,text,text)', false],
      ['private.visitor_days_of(date,date)', false],
    ]);
    for (const row of rows) expect(row.config, row.fn).toContain('search_path=""');
  });

  it('every public function sets search_path', async () => {
    const { rows } = await db.query<{ fn: string }>(
      `select p.oid::regprocedure::text as fn from pg_proc p
       where p.pronamespace = 'public'::regnamespace
         and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`,
    );
    expect(rows).toEqual([]);
  });

  it('anon and authenticated may execute exactly the functions on the allow-list, in every schema of ours', async () => {
    const { rows } = await db.query<{ role: string; fn: string }>(executableByApiRoles);
    expect(rows.map((r) => `${r.role} ${r.fn}`).sort()).toEqual(
      Object.entries(executeAllowList)
        .flatMap(([role, fns]) => fns.map((fn) => `${role} ${fn}`))
        .sort(),
    );
  });

  it('the allow-list is the same as privileges.test.sql’s, which guards supabase test db', () => {
    const sql = readFileSync(path.resolve(migrationsDir, '..', 'tests', 'database', 'privileges.test.sql'), 'utf8');
    const block = /insert into allowed values([\s\S]*?\);)\n/.exec(sql)?.[1] ?? '';
    const listed = [...block.matchAll(/^\s*\('(anon|authenticated)', '([^']+)'\)[,;]/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(listed.sort()).toEqual(
      Object.entries(executeAllowList)
        .flatMap(([role, fns]) => fns.map((fn) => `${role} ${fn}`))
        .sort(),
    );
  });

  it('the allow-list check catches a function left executable by PUBLIC, in any schema of ours (probe, rolled back)', async () => {
    const found = await db.transaction(async (tx) => {
      await tx.exec(`
        create schema probe_schema;
        grant usage on schema probe_schema to anon, authenticated;
        create function probe_schema.forgotten() returns int language sql set search_path = '' as 'select 1';
        create function private.forgotten() returns int language sql set search_path = '' as 'select 1';`);
      const { rows } = await tx.query<{ role: string; fn: string }>(executableByApiRoles);
      await tx.rollback();
      return rows.map((r) => `${r.role} ${r.fn}`);
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'anon private.forgotten()',
        'anon probe_schema.forgotten()',
        'authenticated private.forgotten()',
        'authenticated probe_schema.forgotten()',
      ]),
    );
  });

  it('leaves trigger functions out: not even the owner can call one directly, whatever its privileges', async () => {
    const { rows } = await db.query<{ fn: string }>(
      `select p.oid::regprocedure::text as fn from pg_proc p
       where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace) and p.prorettype = 'trigger'::regtype
       order by 1`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { fn } of rows) {
      const code = await db.query(`select ${fn.replace(/\(\)$/, '')}()`).then(
        () => 'called',
        (error: { code?: string }) => error.code,
      );
      // 0A000 feature_not_supported: "trigger functions can only be called as triggers"
      expect(code, fn).toBe('0A000');
    }
  });

  it('anon may execute only is_staff and tier_rank; staff RPCs are for authenticated, webhook RPCs for service_role', async () => {
    const { rows } = await db.query<{ fn: string; anon: boolean; authenticated: boolean; service_role: boolean }>(
      `select p.oid::regprocedure::text as fn,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated,
              has_function_privilege('service_role', p.oid, 'EXECUTE') as service_role
       from pg_proc p where p.pronamespace = 'public'::regnamespace order by 1`,
    );
    expect(rows.filter((r) => r.anon).map((r) => r.fn)).toEqual(['is_staff()', 'tier_rank(text)']);
    for (const fn of [
      'grant_tier(uuid,tier,text)',
      'revoke_tier(uuid,text)',
      'staff_export_members(text,text,uuid,integer)',
      'staff_list_members(text,integer,integer)',
      'staff_mail_status()',
      'staff_member_detail(uuid)',
      'staff_resend_invitation(text)',
      'staff_catalog()',
      'staff_dashboard()',
      'staff_map_provider_id(text,text,tier)',
      'staff_save_product(tier,jsonb)',
      'staff_visits(integer)',
      'member_benefits()',
      'member_live_sessions()',
      'session_join_link(uuid)',
      'staff_cancel_live_session(uuid)',
      'staff_change_benefit(uuid,text,text,integer,text)',
      'staff_live_overview()',
      'staff_member_benefits(uuid)',
      'staff_save_live_session(uuid,text,text,timestamp with time zone,integer,text,text,text)',
      'staff_save_timed_benefit(text,integer,text)',
    ]) {
      expect(
        rows.find((r) => r.fn === fn),
        fn,
      ).toMatchObject({ anon: false, authenticated: true, service_role: false });
    }
    for (const fn of [
      'record_purchase(text,text,text,text,text,tier,bigint,text,timestamp with time zone)',
      'record_refund(text,text,text,timestamp with time zone)',
      'record_sale(text,text,text,text,text,tier,bigint,text,timestamp with time zone)',
      'claim_invitation(text)',
      'claim_due_invitations(integer)',
      'finish_invitation(text,uuid,text,text)',
      'retry_invitation(text,uuid,text,integer[])',
      'record_mail_path(boolean)',
      'record_catalog_sale(text,text,text,text,jsonb,bigint,text,timestamp with time zone)',
      'record_catalog_refund(text,text,text,timestamp with time zone,jsonb)',
      'stamped_copies_to_expire(timestamp with time zone,integer)',
      'count_visits(jsonb)',
      'record_purchase_campaign(text,text,text,text,text,text)',
      'log_media_play(uuid,uuid,text,text,inet,text)',
      'record_booking(text,text,text,text,text,text,text,timestamp with time zone,timestamp with time zone,text,timestamp with time zone)',
      'claim_member_mail(integer)',
      'finish_member_mail(uuid,text,text,integer[])',
    ]) {
      expect(
        rows.find((r) => r.fn === fn),
        fn,
      ).toMatchObject({ anon: false, authenticated: false, service_role: true });
    }
    // Trigger functions are not callable by the API roles at all.
    for (const fn of [
      'audit_user_tier_change()',
      'handle_new_user()',
      'profiles_before_update()',
      'user_tiers_before_update()',
    ]) {
      expect(rows.find((r) => r.fn === fn)).toMatchObject({ anon: false, authenticated: false });
    }
  });
});

/**
 * The database linter's (supabase/splinter) ERROR and WARN checks that can fire on this
 * schema, plus 0008 (INFO: row level security on, no policy), rewritten from their public definitions. Each
 * lists offending objects; all must list none. The API schemas come from config.toml, as
 * hosted sets pgrst.db_schemas from the project's API settings.
 */
const lintExcludedSchemas = `('_timescaledb_cache', '_timescaledb_catalog', '_timescaledb_config', '_timescaledb_internal',
  'auth', 'cron', 'extensions', 'graphql', 'graphql_public', 'information_schema', 'net', 'pgmq', 'pgroonga', 'pgsodium',
  'pgsodium_masks', 'pgtle', 'pgbouncer', 'pg_catalog', 'realtime', 'repack', 'storage', 'supabase_functions',
  'supabase_migrations', 'tiger', 'topology', 'vault')`;
const apiSchemas = `array(select trim(unnest(string_to_array(current_setting('pgrst.db_schemas', true), ','))))`;

const lints: Record<string, string> = {
  // ERROR: policies exist but RLS is off.
  '0007 policy_exists_rls_disabled': `
    select n.nspname || '.' || c.relname as hit from pg_policy p
    join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
    where not c.relrowsecurity and n.nspname not in ${lintExcludedSchemas}
    group by 1`,
  // INFO: RLS on, no policy at all.
  '0008 rls_enabled_no_policy': `
    select n.nspname || '.' || c.relname as hit from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and c.relrowsecurity and n.nspname not in ${lintExcludedSchemas}
      and not exists (select 1 from pg_policy p where p.polrelid = c.oid)
      and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')`,
  // ERROR: a view in an API schema that runs with its owner's rights.
  '0010 security_definer_view': `
    select n.nspname || '.' || c.relname as hit from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'v' and n.nspname = any(${apiSchemas}) and n.nspname not in ${lintExcludedSchemas}
      and not coalesce(c.reloptions && array['security_invoker=true', 'security_invoker=on', 'security_invoker=1'], false)
      and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')`,
  // WARN: a function without a fixed search_path.
  '0011 function_search_path_mutable': `
    select p.oid::regprocedure::text as hit from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not in ${lintExcludedSchemas}
      and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`,
  // ERROR: a table in an API schema without RLS.
  '0013 rls_disabled_in_public': `
    select n.nspname || '.' || c.relname as hit from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and not c.relrowsecurity
      and n.nspname = any(${apiSchemas}) and n.nspname not in ${lintExcludedSchemas}`,
  // WARN: auth.uid() / current_setting() evaluated per row instead of once.
  '0003 auth_rls_initplan': `
    select schemaname || '.' || tablename || ': ' || policyname as hit
    from pg_policies p join pg_class c on c.oid = (quote_ident(schemaname) || '.' || quote_ident(tablename))::regclass
    where c.relrowsecurity and schemaname not in ${lintExcludedSchemas}
      and exists (
        select 1 from unnest(array[qual, with_check]) as e(expr), unnest(array['auth.uid()', 'auth.jwt()', 'auth.role()', 'auth.email()']) as f(fn)
        where e.expr like '%' || f.fn || '%' and lower(e.expr) not like '%select ' || f.fn || '%'
        union all
        select 1 from unnest(array[qual, with_check]) as e(expr)
        where e.expr like '%current\\_setting(%)%' and lower(e.expr) not like '%select current\\_setting(%)%'
      )`,
  // WARN: more than one permissive policy for the same role and command.
  '0006 multiple_permissive_policies': `
    select n.nspname || '.' || c.relname || ' ' || r.rolname || ' ' || act.cmd as hit
    from pg_policy p
    join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
    join pg_roles r on p.polroles @> array[r.oid] or p.polroles = array[0::oid],
    lateral unnest(case p.polcmd when 'r' then array['SELECT'] when 'a' then array['INSERT'] when 'w' then array['UPDATE']
      when 'd' then array['DELETE'] else array['SELECT', 'INSERT', 'UPDATE', 'DELETE'] end) as act(cmd)
    where c.relkind = 'r' and p.polpermissive and n.nspname not in ${lintExcludedSchemas}
      and r.rolname not like 'pg_%' and r.rolname not like 'supabase%admin' and not r.rolbypassrls
    group by n.nspname, c.relname, r.rolname, act.cmd having count(*) > 1`,
  // WARN: a public bucket with a broad select policy, so anyone can list every file.
  '0025 public_bucket_allows_listing': `
    select b.id || ': ' || p.policyname as hit from storage.buckets b
    join pg_policies p on p.schemaname = 'storage' and p.tablename = 'objects' and p.cmd in ('SELECT', 'ALL')
      and p.permissive = 'PERMISSIVE' and p.roles && array['public', 'anon', 'authenticated']::name[]
    where b.public and (
      p.qual is null
      or replace(replace(replace(lower(p.qual), ' ', ''), e'\\n', ''), e'\\t', '') in ('true', '(true)', '1=1', '(1=1)')
      or (regexp_match(p.qual, '\\A\\s*\\(*\\s*bucket_id\\s*=\\s*(''(?:[^'']|'''')*'')(\\s*::\\s*[[:alnum:]_.]+)?\\s*\\)*\\s*\\Z', 'i'))[1]
         = quote_literal(b.id)
    )`,
  // WARN: a security definer function in an API schema that anon may execute.
  '0028 anon_security_definer_function_executable': `
    select p.oid::regprocedure::text as hit from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where p.prosecdef and has_function_privilege('anon', p.oid, 'EXECUTE')
      and n.nspname = any(${apiSchemas}) and n.nspname not in ${lintExcludedSchemas}`,
  // WARN: the same for authenticated.
  '0029 authenticated_security_definer_function_executable': `
    select p.oid::regprocedure::text as hit from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where p.prosecdef and has_function_privilege('authenticated', p.oid, 'EXECUTE')
      and n.nspname = any(${apiSchemas}) and n.nspname not in ${lintExcludedSchemas}`,
};

/** A statement per lint that reintroduces it, for the probes below. */
const lintProbes: Record<string, { sql: string; hit: string }> = {
  '0007 policy_exists_rls_disabled': {
    sql: `create table public.lint_probe (id int); create policy "p" on public.lint_probe using (true);`,
    hit: 'public.lint_probe',
  },
  '0008 rls_enabled_no_policy': {
    sql: `create table public.lint_probe (id int); alter table public.lint_probe enable row level security;`,
    hit: 'public.lint_probe',
  },
  '0010 security_definer_view': {
    sql: `create view public.lint_probe as select 1 as one;`,
    hit: 'public.lint_probe',
  },
  '0011 function_search_path_mutable': {
    sql: `create function private.lint_probe() returns int language sql as 'select 1';`,
    hit: 'private.lint_probe()',
  },
  '0013 rls_disabled_in_public': {
    sql: `create table public.lint_probe (id int);`,
    hit: 'public.lint_probe',
  },
  '0003 auth_rls_initplan': {
    sql: `create policy "probe" on public.user_tiers for select to authenticated using (user_id = auth.uid());`,
    hit: 'public.user_tiers: probe',
  },
  '0006 multiple_permissive_policies': {
    sql: `create policy "probe" on public.user_tiers for select to authenticated using (false);`,
    hit: 'public.user_tiers authenticated SELECT',
  },
  '0025 public_bucket_allows_listing': {
    sql: `create policy "probe" on storage.objects for select to anon using (bucket_id = 'avatars');`,
    hit: 'avatars: probe',
  },
  '0028 anon_security_definer_function_executable': {
    sql: `alter function public.is_staff() security definer;`,
    hit: 'is_staff()',
  },
  '0029 authenticated_security_definer_function_executable': {
    sql: `create function public.lint_probe() returns int language sql security definer set search_path = '' as 'select 1';
          grant execute on function public.lint_probe() to authenticated;`,
    hit: 'lint_probe()',
  },
};

/** The schemas config.toml exposes through the API ([api] schemas). */
const exposedSchemas = (() => {
  const toml = readFileSync(path.resolve(migrationsDir, '..', 'config.toml'), 'utf8');
  const line = /^schemas\s*=\s*(\[.*])/m.exec(toml);
  return (JSON.parse(line?.[1] ?? '[]') as string[]).join(',');
})();

async function lintHits(tx: Queryable, lint: string): Promise<string[]> {
  await tx.query(`select set_config('pgrst.db_schemas', $1, true)`, [exposedSchemas]);
  const { rows } = await tx.query<{ hit: string }>(lints[lint]!);
  return rows.map((r) => r.hit).sort();
}

describe('database linter (splinter) checks', () => {
  it('the API exposes public and graphql_public, not private', () => {
    expect(exposedSchemas).toBe('public,graphql_public');
  });

  for (const lint of Object.keys(lints)) {
    it(`${lint}: nothing`, async () => {
      const hits = await db.transaction(async (tx) => {
        const found = await lintHits(tx, lint);
        await tx.rollback();
        return found;
      });
      expect(hits).toEqual([]);
    });

    it(`${lint}: a migration that reintroduces it is caught (probe, rolled back)`, async () => {
      const probe = lintProbes[lint]!;
      const hits = await db.transaction(async (tx) => {
        await tx.exec(probe.sql);
        const found = await lintHits(tx, lint);
        await tx.rollback();
        return found;
      });
      expect(hits).toContain(probe.hit);
    });
  }
});

/**
 * Every table, view, function and type in public, function in private, policy, and trigger
 * of ours (on a table in public, or calling a function in public or private, as those on
 * auth.users do) that has no `comment on ...` (or only whitespace). Objects that belong to an
 * extension are skipped.
 */
const undocumented = `
  select kind, name from (
    select 'table' as kind, c.oid::regclass::text as name, obj_description(c.oid, 'pg_class') as doc, c.oid as oid
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
    union all
    select 'function', p.oid::regprocedure::text, obj_description(p.oid, 'pg_proc'), p.oid
    from pg_proc p
    where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
    union all
    select 'type', t.oid::regtype::text, obj_description(t.oid, 'pg_type'), t.oid
    from pg_type t
    where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'r', 'm')
    union all
    select 'policy', format('%I on %s', pol.polname, pol.polrelid::regclass), obj_description(pol.oid, 'pg_policy'), pol.oid
    from pg_policy pol
    union all
    select 'trigger', format('%I on %s', tg.tgname, tg.tgrelid::regclass), obj_description(tg.oid, 'pg_trigger'), tg.oid
    from pg_trigger tg
    join pg_class c on c.oid = tg.tgrelid
    join pg_proc f on f.oid = tg.tgfoid
    where not tg.tgisinternal
      and (c.relnamespace = 'public'::regnamespace
           or f.pronamespace in ('public'::regnamespace, 'private'::regnamespace))
  ) o
  where coalesce(btrim(doc), '') = ''
    and not exists (select 1 from pg_depend d where d.objid = o.oid and d.deptype = 'e')
  order by kind, name`;

describe('documentation', () => {
  it('every public table, function and type, private function, policy and trigger of ours has a comment', async () => {
    const { rows } = await db.query(undocumented);
    expect(rows).toEqual([]);
  });

  it('the comment check finds an undocumented table, function, type, policy and trigger', async () => {
    const found = await db.transaction(async (tx) => {
      await tx.exec(`
        create table public.probe_undocumented (id int);
        create function public.probe_undocumented() returns int language sql set search_path = '' as 'select 1';
        create type public.probe_kind as enum ('a');
        create policy "Probe policy" on public.profiles for select using (false);
        comment on policy "Probe policy" on public.profiles is '  ';
        create function private.probe_trigger() returns trigger language plpgsql set search_path = ''
          as 'begin return new; end';
        comment on function private.probe_trigger() is 'probe';
        create trigger probe_on_users before update on auth.users for each row execute function private.probe_trigger();
        create trigger probe_on_staff before update on public.staff for each row execute function private.probe_trigger();
        create function private.probe_undocumented() returns int language sql set search_path = '' as 'select 1';`);
      const { rows } = await tx.query(undocumented);
      await tx.rollback();
      return rows;
    });
    expect(found).toEqual([
      { kind: 'function', name: 'private.probe_undocumented()' },
      { kind: 'function', name: 'probe_undocumented()' },
      { kind: 'policy', name: '"Probe policy" on profiles' },
      { kind: 'table', name: 'probe_undocumented' },
      { kind: 'trigger', name: 'probe_on_staff on staff' },
      { kind: 'trigger', name: 'probe_on_users on auth.users' },
      { kind: 'type', name: 'probe_kind' },
    ]);
    expect((await db.query(undocumented)).rows).toEqual([]);
  });
});

/** The migration files, in order, and all their SQL. */
const migrationFiles = readdirSync(migrationsDir)
  .filter((file) => file.endsWith('.sql'))
  .sort();
const migrationSql = migrationFiles.map((file) => readFileSync(path.join(migrationsDir, file), 'utf8')).join('\n');

/** The do-blocks that guard the storage policy comments of every migration. */
const storagePolicyCommentBlocks = migrationSql.match(/^do \$\$ begin\n {2}comment on policy [^]*?^end \$\$;$/gm) ?? [];

describe('storage policy comments', () => {
  it('every comment on a storage.objects policy sits in a guarding do-block', async () => {
    const bare = migrationSql.match(/^comment on policy [^\n]* on storage\.objects/gm) ?? [];
    expect(bare).toEqual([]);
    const { rows } = await db.query<{ name: string }>(
      `select polname as name from pg_policy where polrelid = 'storage.objects'::regclass order by 1`,
    );
    // A later migration may drop a policy the baseline commented: every policy that exists counts.
    const guarded = new Set(
      storagePolicyCommentBlocks.flatMap((block) =>
        [...block.matchAll(/^ {2}comment on policy "([^"]+)"/gm)].map((match) => match[1]),
      ),
    );
    expect(rows.filter((row) => !guarded.has(row.name))).toEqual([]);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('a migration role that does not own storage.objects skips them instead of failing', async () => {
    expect(storagePolicyCommentBlocks.length).toBeGreaterThan(0);
    await db.transaction(async (tx) => {
      await tx.exec(`
        create role probe_migrator nologin;
        grant usage on schema storage to probe_migrator;
        set local role probe_migrator;`);
      // Outside a block the same statement is refused, as on a hosted image that forbids it.
      await expect(
        tx.exec(`savepoint bare; comment on policy "Staff can upload resources" on storage.objects is 'x'`),
      ).rejects.toThrow(/must be owner/);
      await tx.exec('rollback to savepoint bare');
      for (const block of storagePolicyCommentBlocks) await tx.exec(block);
      await tx.rollback();
    });
  });
});

describe('tier order', () => {
  // tiers.ts is the enum itself (generated; database-types.test.ts catches drift). tier_rank()
  // spells the order again as a CASE, because it must answer null for any other text.
  it('tier_rank() ranks each tier at its place in the enum', async () => {
    const { rows } = await db.query<{ tier: string; rank: number }>(
      `select t as tier, public.tier_rank(t) as rank from unnest($1::text[]) with ordinality as u(t, i) order by i`,
      [[...tiers]],
    );
    expect(rows).toEqual(tiers.map((tier, rank) => ({ tier, rank })));
  });

  it('tier_rank() is null for null, unknown, padded or differently cased names', async () => {
    const { rows } = await db.query<{ rank: number | null }>(
      `select public.tier_rank(t) as rank from unnest(array[null, '', 'platinum', 'Ebook', ' ebook', 'complete ', '..']) as t`,
    );
    expect(rows.every((r) => r.rank === null)).toBe(true);
    expect(rows).toHaveLength(7);
  });
});

describe('platform wiring', () => {
  it('profiles and user_tiers are published to realtime, and nothing else from public', async () => {
    const { rows } = await db.query(
      `select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime' order by tablename`,
    );
    expect(rows).toEqual([
      { schemaname: 'public', tablename: 'profiles' },
      { schemaname: 'public', tablename: 'user_tiers' },
    ]);
  });

  it('realtime publishes inserts and updates only: a DELETE would send every subscriber the deleted user id', async () => {
    const { rows } = await db.query(
      `select pubinsert, pubupdate, pubdelete, pubtruncate from pg_publication where pubname = 'supabase_realtime'`,
    );
    expect(rows).toEqual([{ pubinsert: true, pubupdate: true, pubdelete: false, pubtruncate: false }]);
  });

  describe('account deletion', () => {
    /** Deletes a demo user (as the auth server would) and returns the avatars objects left, rolled back. */
    async function avatarsLeftAfterDeleting(user: string, hostedDeleteGuard: boolean): Promise<string[]> {
      return db.transaction(async (tx) => {
        if (hostedDeleteGuard) {
          // Hosted Storage refuses direct SQL deletes unless storage.allow_delete_query is 'true'
          // (storage.protect_delete, a statement trigger); the stand-in does not have it.
          await tx.exec(`
          create function storage.probe_protect_delete() returns trigger language plpgsql as $$
          begin
            if coalesce(current_setting('storage.allow_delete_query', true), 'false') <> 'true' then
              raise exception 'Direct deletion from storage tables is not allowed' using errcode = '42501';
            end if;
            return null;
          end $$;
          create trigger probe_protect_delete before delete on storage.objects
            for each statement execute function storage.probe_protect_delete();`);
        }
        await tx.query(
          `insert into storage.objects (bucket_id, name, metadata) values
           ('avatars', $1 || '/avatar.png', '{"mimetype": "image/png", "size": 10}'),
           ('avatars', $2 || '/avatar.png', '{"mimetype": "image/png", "size": 10}'),
           ('resources', 'ebook/guide/' || $1 || '.pdf', '{"mimetype": "application/pdf", "size": 10}')`,
          [user, demo.ebook],
        );
        await tx.query(`delete from auth.users where id = $1`, [user]);
        const { rows } = await tx.query<{ name: string }>(
          `select bucket_id || ':' || name as name from storage.objects order by 1`,
        );
        const setting = await tx.query<{ allowed: string | null }>(
          `select current_setting('storage.allow_delete_query', true) as allowed`,
        );
        expect(setting.rows[0]?.allowed ?? '').not.toBe('true');
        await tx.rollback();
        return rows.map((r) => r.name);
      });
    }

    for (const hostedDeleteGuard of [false, true]) {
      it(`deleting a user deletes their avatar and nothing else${hostedDeleteGuard ? " (with hosted Storage's delete guard)" : ''}`, async () => {
        expect(await avatarsLeftAfterDeleting(demo.notier, hostedDeleteGuard)).toEqual([
          `avatars:${demo.ebook}/avatar.png`,
          `resources:ebook/guide/${demo.notier}.pdf`,
        ]);
      });
    }
  });

  it('every migration is recorded as applied, in file order', async () => {
    const { rows } = await db.query<{ version: string }>(
      `select version from supabase_migrations.schema_migrations order by version`,
    );
    expect(rows.map((r) => r.version)).toEqual(migrationFiles.map((f) => f.split('_')[0]));
  });

  it('buckets match config.toml', async () => {
    const declared = parseBuckets(readFileSync(path.resolve(migrationsDir, '..', 'config.toml'), 'utf8'));
    const { rows } = await db.query(
      `select id, public, file_size_limit::float8 as file_size_limit, allowed_mime_types from storage.buckets order by id`,
    );
    expect(rows).toEqual(declared);
    expect(rows).toEqual([
      {
        id: 'avatars',
        public: true,
        file_size_limit: 2 * 1024 * 1024,
        allowed_mime_types: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
      },
      {
        id: 'resources',
        public: false,
        file_size_limit: 1024 * 1024 * 1024,
        allowed_mime_types: [
          'application/pdf',
          'application/epub+zip',
          'application/x-mobipocket-ebook',
          'audio/mpeg',
          'audio/mp4',
          'video/mp4',
          'text/vtt',
        ],
      },
      {
        id: 'stamped-downloads',
        public: false,
        file_size_limit: 200 * 1024 * 1024,
        allowed_mime_types: ['application/pdf', 'application/epub+zip'],
      },
    ]);
  });
});

describe('demo accounts (seed.sql)', () => {
  it('one per tier, one without a tier, one staff; all confirmed with password123', async () => {
    const { rows } = await db.query(
      `select u.id, u.email, t.tier, p.display_name, exists (select 1 from public.staff s where s.user_id = u.id) as staff,
              u.encrypted_password = extensions.crypt('password123', u.encrypted_password) as password_ok,
              u.email_confirmed_at is not null as confirmed,
              (select count(*)::int from auth.identities i where i.user_id = u.id and i.provider = 'email') as identities
       from auth.users u
       left join public.user_tiers t on t.user_id = u.id
       left join public.profiles p on p.user_id = u.id
       order by u.id`,
    );
    const row = (id: string, email: string, tier: string | null, display_name: string | null, staff = false) => ({
      id,
      email,
      tier,
      display_name,
      staff,
      password_ok: true,
      confirmed: true,
      identities: 1,
    });
    expect(rows).toEqual([
      row(demo.ebook, 'ebook@example.com', 'ebook', 'Eve Ebook'),
      row(demo.foundation, 'foundation@example.com', 'foundation', 'Fran Foundation'),
      row(demo.accelerated, 'accelerated@example.com', 'accelerated', 'Alex Accelerated'),
      row(demo.complete, 'complete@example.com', 'complete', 'Casey Complete'),
      row(demo.notier, 'notier@example.com', null, null),
      row(demo.staff, 'staff@example.com', 'complete', 'Sam Staff', true),
    ]);
  });

  it('creates nothing for later statements to read: the CLI prepares a seed file as one batch', () => {
    const seed = readFileSync(seedFile, 'utf8').replace(/--.*$/gm, '');
    expect(seed).not.toMatch(/\bcreate\s+(temp|temporary|unlogged\s+)?\s*(table|view|function)\b/i);
  });

  it('seeds no storage objects (the stand-in uploads its own samples)', async () => {
    expect((await db.query(`select name from storage.objects`)).rows).toEqual([]);
  });

  it('leaves the GoTrue token columns empty strings, not null', async () => {
    const { rows } = await db.query(
      `select count(*)::int as n from auth.users where confirmation_token is null or recovery_token is null
         or email_change_token_new is null or email_change is null`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });
});

/** Reads the [storage.buckets.*] tables of config.toml (the few value shapes used there). */
function parseBuckets(toml: string) {
  const buckets: { id: string; public: boolean; file_size_limit: number; allowed_mime_types: string[] }[] = [];
  let current: Record<string, unknown> | null = null;
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[(.+)]$/.exec(line);
    if (header) {
      const bucket = /^storage\.buckets\.(.+)$/.exec(header[1] ?? '');
      current = bucket ? { id: bucket[1] } : null;
      if (current) buckets.push(current as (typeof buckets)[number]);
      continue;
    }
    const kv = /^(\w+)\s*=\s*(.+)$/.exec(line);
    if (!current || !kv) continue;
    const [, key = '', value = ''] = kv;
    const size = /^"(\d+)(KiB|MiB|GiB)"$/.exec(value);
    current[key] = size
      ? Number(size[1]) * { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }[size[2] as 'KiB']
      : JSON.parse(value);
  }
  return buckets.sort((a, b) => a.id.localeCompare(b.id));
}
