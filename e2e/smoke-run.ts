import { execFile } from 'node:child_process';
import path from 'node:path';

export type SmokeLine = { name: string; ok: boolean; detail: string };
export type SmokeRun = { code: number; lines: SmokeLine[]; output: string };

/**
 * Runs `npm run smoke -- <siteUrl>` as an owner would (the script itself, `node scripts/checks/smoke.mjs`,
 * without npm's banner) and reads its one line per check.
 */
export function runSmoke(siteUrl: string): Promise<SmokeRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.resolve('scripts/checks/smoke.mjs'), siteUrl],
      { timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        const lines = stdout
          .split('\n')
          .map((line) => /^(ok {2}|FAIL) ([^:]+): (.*)$/.exec(line))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => ({ ok: m[1] === 'ok  ', name: m[2]!, detail: m[3]! }));
        resolve({ code, lines, output: `${stdout}${stderr}` });
      },
    );
  });
}
