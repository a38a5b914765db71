#!/usr/bin/env node
// @ts-check
// `npm run dev`: the Vite dev server, plus the local Supabase stand-in when no hosted project
// is configured (VITE_SUPABASE_URL in the environment or in .env / .env.local /
// .env.development / .env.development.local). Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENV_FILES = ['.env', '.env.local', '.env.development', '.env.development.local'];

/**
 * The value of `name` the way Vite would see it (process env wins over files).
 * @param {string} name
 * @returns {string | undefined}
 */
function configured(name) {
  if (process.env[name]) return process.env[name];
  let value;
  for (const file of ENV_FILES) {
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    for (const line of readFileSync(full, 'utf8').split(/\r?\n/)) {
      const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
      if (m && m[1] === name) value = (m[2] ?? '').replace(/^(['"])(.*)\1$/, '$2');
    }
  }
  return value || undefined;
}

const vite = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vite.cmd' : 'vite');
const viteArgs = process.argv.slice(2);

async function main() {
  if (configured('VITE_SUPABASE_URL')) {
    console.log(`Using the Supabase project at ${configured('VITE_SUPABASE_URL')} (from the environment / .env).`);
    const child = spawn(vite, viteArgs, { cwd: root, stdio: 'inherit' });
    const forward = (/** @type {NodeJS.Signals} */ signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 0)));
    return;
  }

  // No hosted project: run the stand-in in this process, then Vite pointed at it.
  const { startServer, describeStandIn, DEFAULT_DATA_DIR } =
    await import('../../packages/supabase-stand-in/server.mjs');
  const { ANON_KEY } = await import('../../packages/supabase-stand-in/keys.mjs');
  const port = Number(process.env.LOCAL_SUPABASE_PORT) || 54321;
  console.log('No VITE_SUPABASE_URL configured: starting the local Supabase stand-in…');
  const server = await startServer({ port, dataDir: DEFAULT_DATA_DIR });
  // Supabase Cron's invitation schedule, as `npm run supabase:local --cron` runs it: without it an
  // invitation held back by the e-mail budget would never leave the local inbox queue.
  const { startLocalCron } = await import('../../packages/supabase-stand-in/cron.mjs');
  const stopCron = startLocalCron({ baseUrl: server.url, db: server.db, log: (m) => console.log(m) });

  const child = spawn(vite, viteArgs, {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
    env: { ...process.env, VITE_SUPABASE_URL: server.url, VITE_SUPABASE_ANON_KEY: ANON_KEY },
  });
  let announced = false;
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    // Strip colour codes before reading Vite's "Local:" line.
    // eslint-disable-next-line no-control-regex
    const text = String(chunk).replace(/\x1b\[[0-9;]*m/g, '');
    const site = /Local:\s+(http\S+)/.exec(text)?.[1];
    if (site && !announced) {
      announced = true;
      console.log(
        `\nSite: ${site}\n${describeStandIn(server.url)}\n\nData in ${path.relative(root, DEFAULT_DATA_DIR)} (npm run supabase:reset starts over). Ctrl-C stops both.\n`,
      );
    }
  });

  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    stopCron();
    await server.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  child.on('exit', (code) => void stop(code ?? 0));
}

main().catch((err) => {
  console.error(`[dev] ${err?.message ?? err}`);
  if (err?.code === 'EADDRINUSE')
    console.error(
      'Port 54321 is taken: is `npm run supabase:local` or `supabase start` already running? Set LOCAL_SUPABASE_PORT to use another.',
    );
  process.exit(1);
});
