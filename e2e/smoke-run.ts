import { execFile } from 'node:child_process';
import path from 'node:path';

export type SmokeLine = { name: string; ok: boolean; skipped: boolean; detail: string };
export type SmokeRun = { code: number; lines: SmokeLine[]; output: string };

/**
 * Runs `npm run smoke -- <siteUrl>` as an owner would (the script itself, `node scripts/checks/smoke.mjs`,
 * without npm's banner) and reads its one line per check. `serviceRoleKey` goes in its
 * environment as SUPABASE_SERVICE_ROLE_KEY; without it the variable is removed, whatever the
 * suite's own environment holds (a `supabase start` run sets it), so each run says which it is.
 */
export function runSmoke(siteUrl: string, { serviceRoleKey }: { serviceRoleKey?: string } = {}): Promise<SmokeRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.SUPABASE_SERVICE_ROLE_KEY;
  if (serviceRoleKey) env.SUPABASE_SERVICE_ROLE_KEY = serviceRoleKey;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.resolve('scripts/checks/smoke.mjs'), siteUrl],
      { timeout: 90_000, env },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        const lines = stdout
          .split('\n')
          .map((line) => /^(ok {2}|FAIL|skip) ([^:]+): (.*)$/.exec(line))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => ({ ok: m[1] !== 'FAIL', skipped: m[1] === 'skip', name: m[2]!, detail: m[3]! }));
        resolve({ code, lines, output: `${stdout}${stderr}` });
      },
    );
  });
}
