-- The tier audit is written by its trigger alone (issue 21, found by the service role's pgTAP
-- file). 20261122000400 revoked everything from the client roles and meant service_role to
-- read it ("grant select ... to service_role"), but the platform's default privileges had
-- already given service_role every privilege on the new table, so the secret key could
-- insert, change or delete audit rows. The audit triggers run as their owner, so they keep
-- writing; service_role keeps select (the e2e suite reads the audit with it).
revoke insert, update, delete, truncate, references, trigger on table public.tier_audit from service_role;
