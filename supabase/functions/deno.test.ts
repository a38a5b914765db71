// Every Edge Function's entry is type-checked by Deno itself (the repo's tsc sees it only through
// a shim): the pinned `deno` package's binary, resolved from the package, never from PATH, with
// the function's own deno.json (as deployed) and npm packages from node_modules (offline, the
// versions the lock file pins), as the local stand-in runs it. A function is a folder here with
// an index.ts, so one added later is checked without a test of its own.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const deno = (require('deno/install_api.cjs') as { runInstall(): string }).runInstall();
const root = fileURLToPath(new URL('../..', import.meta.url));
const functionsDir = fileURLToPath(new URL('.', import.meta.url));
const functions = readdirSync(functionsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`${functionsDir}/${entry.name}/index.ts`))
  .map((entry) => entry.name);

describe('Edge Functions in Deno', () => {
  it('finds the functions config.toml deploys', () => {
    expect(functions).toEqual(expect.arrayContaining(['account', 'purchase-webhook']));
  });

  it.each(functions)('%s: index.ts and everything it imports type-check with Deno’s own types', async (name) => {
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        deno,
        [
          'check',
          '--config',
          `supabase/functions/${name}/deno.json`,
          '--node-modules-dir=manual',
          `supabase/functions/${name}/index.ts`,
        ],
        { cwd: root, env: { ...process.env, NO_COLOR: '1' } },
        (error, stdout, stderr) =>
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
            output: `${stdout}${stderr}`,
          }),
      );
    });
    expect(result.output).not.toMatch(/error/i);
    expect(result.code).toBe(0);
  });
});
