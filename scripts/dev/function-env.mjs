// @ts-check
// Writes supabase/functions/.env for a `supabase start` stack: the Supabase CLI gives every
// Edge Function the variables in that file (its fallback env file when no --env-file is named,
// read by both `supabase start` and `supabase functions serve`), on top of the SUPABASE_URL and
// keys it injects itself. The values are the published development ones the local stand-in uses
// (packages/supabase-stand-in/functions/secrets.mjs) plus SITE_URL, the site the invitations lead back to.
// Git-ignored (`.env`); `supabase secrets set` never reads it unless named with --env-file, so
// none of this reaches a hosted project.
//
//   node scripts/dev/function-env.mjs --site-url http://127.0.0.1:4173 [--out <file>] [--force]
//
// An existing file with other content is left alone unless --force (it may hold a developer's own).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LOCAL_FUNCTION_SECRETS } from '../../packages/supabase-stand-in/functions/secrets.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FUNCTIONS_ENV_FILE = path.join(repoRoot, 'supabase', 'functions', '.env');

/**
 * The file's text: one `NAME=value` a line, as the CLI's dotenv parser (godotenv) reads it.
 * @param {{ siteUrl: string }} options
 */
export function functionEnvFile({ siteUrl }) {
  const site = new URL(siteUrl);
  if (site.protocol !== 'http:' && site.protocol !== 'https:') throw new Error(`--site-url: not http(s): ${siteUrl}`);
  const values = { ...LOCAL_FUNCTION_SECRETS, SITE_URL: site.origin };
  const lines = Object.entries(values).map(([name, value]) => {
    // Unquoted values: nothing a dotenv parser would read differently.
    if (!/^[A-Za-z0-9_.:/-]+$/.test(value)) throw new Error(`${name}: unexpected characters in ${value}`);
    return `${name}=${value}`;
  });
  return [
    '# Written by scripts/dev/function-env.mjs: published development values, for a local `supabase start`.',
    ...lines,
    '',
  ].join('\n');
}

/**
 * @param {{ siteUrl: string, out?: string, force?: boolean }} options
 * @returns {'written' | 'unchanged'}
 */
export function writeFunctionEnv({ siteUrl, out = FUNCTIONS_ENV_FILE, force = false }) {
  const text = functionEnvFile({ siteUrl });
  if (existsSync(out)) {
    if (readFileSync(out, 'utf8') === text) return 'unchanged';
    if (!force) throw new Error(`${out} exists with other content; remove it or pass --force`);
  }
  writeFileSync(out, text);
  return 'written';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { 'site-url': { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  try {
    if (!values['site-url']) throw new Error('--site-url is required (the origin the site under test is served on)');
    const out = values.out ? path.resolve(values.out) : FUNCTIONS_ENV_FILE;
    const result = writeFunctionEnv({ siteUrl: values['site-url'], out, force: values.force });
    console.log(`${path.relative(process.cwd(), out)}: ${result}`);
  } catch (err) {
    console.error(`function-env: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
