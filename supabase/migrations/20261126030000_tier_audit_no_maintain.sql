-- The tier audit is append-only (baseline, section on tier_audit): only its trigger writes it.
-- PostgreSQL 17 added the MAINTAIN privilege (VACUUM, ANALYZE, REINDEX, CLUSTER, REFRESH and
-- LOCK TABLE in any mode), and the platform's default privileges hand it to service_role on
-- every table. It writes no row, but it lets the secret key hold an ACCESS EXCLUSIVE lock on the
-- audit, which stalls every tier change (their trigger must insert here) for as long as it is
-- held. Nothing of ours needs it: autovacuum runs as the owner. Found by the squash's catalog
-- comparison (scripts/schema-facts.mjs), which kept it so that the squash changed nothing.
revoke maintain on table public.tier_audit from service_role;
