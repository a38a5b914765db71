#!/usr/bin/env node
// @ts-check
// `npm run smoke`: checks a deployed Supabase project from outside, the way a visitor's browser
// reaches it, before a customer finds out. Issue 25's check is the first: e-mail confirmations
// must be on (`mailer_autoconfirm: false` in the auth server's public settings), or whoever
// signs up first with a buyer's address gets the buyer's account (docs/database.md). Issue 20
// adds the rest of the deployed site to the same list.
//
//   npm run smoke -- --supabase-url https://<ref>.supabase.co --anon-key <anon or publishable key>
//
// Without flags it reads VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY (what the site was built
// with). Exits 1 when a check fails.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @typedef {{ name: string, ok: boolean, detail: string }} CheckResult
 * @typedef {{ supabaseUrl: string, anonKey: string, fetch?: typeof fetch }} Target
 */

/**
 * The auth server's public settings: confirmations on, so an address is proven before an
 * account (and a purchase) is attached to it.
 * @param {Target} target
 * @returns {Promise<CheckResult>}
 */
export async function checkConfirmationsOn({ supabaseUrl, anonKey, fetch = globalThis.fetch }) {
  const name = 'e-mail confirmations are on';
  const url = `${supabaseUrl.replace(/\/+$/, '')}/auth/v1/settings`;
  let response;
  try {
    response = await fetch(url, { headers: { apikey: anonKey } });
  } catch (error) {
    return { name, ok: false, detail: `${url} did not answer: ${error instanceof Error ? error.message : error}` };
  }
  if (!response.ok)
    return { name, ok: false, detail: `${url} answered ${response.status}: is the key this project's?` };
  const settings = /** @type {{ mailer_autoconfirm?: unknown }} */ (await response.json());
  if (settings.mailer_autoconfirm === false) return { name, ok: true, detail: 'mailer_autoconfirm: false' };
  return {
    name,
    ok: false,
    detail: `mailer_autoconfirm: ${JSON.stringify(settings.mailer_autoconfirm)}: turn "Confirm email" on (supabase config push, or Auth → Sign In / Providers → Email); with it off, whoever signs up first with a buyer's address gets their account (docs/database.md)`,
  };
}

/** Every check, in order. */
export const CHECKS = [checkConfirmationsOn];

/**
 * Runs every check against `target`.
 * @param {Target} target
 * @returns {Promise<CheckResult[]>}
 */
export async function runChecks(target) {
  const results = [];
  for (const check of CHECKS) results.push(await check(target));
  return results;
}

/** @param {string[]} argv */
export function parseArgs(argv, env = process.env) {
  /** @type {Record<string, string | undefined>} */
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--supabase-url' || arg === '--anon-key') flags[arg] = argv[++i];
    else throw new Error(`unknown argument ${arg}`);
  }
  const supabaseUrl = flags['--supabase-url'] ?? env.VITE_SUPABASE_URL;
  const anonKey = flags['--anon-key'] ?? env.VITE_SUPABASE_ANON_KEY;
  if (!supabaseUrl || !anonKey)
    throw new Error('give --supabase-url and --anon-key (or VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY)');
  return { supabaseUrl, anonKey };
}

async function main() {
  const target = parseArgs(process.argv.slice(2));
  const results = await runChecks(target);
  for (const { name, ok, detail } of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
  if (results.some((result) => !result.ok)) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`[smoke] ${error instanceof Error ? error.message : error}`);
    process.exit(2);
  });
}
