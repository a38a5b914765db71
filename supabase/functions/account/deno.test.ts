// The Deno entry is type-checked by Deno itself (the repo's tsc sees it only through a shim):
// the pinned `deno` package's binary, resolved from the package, never from PATH, with the
// function's own deno.json (as deployed) and npm packages from node_modules (offline, the
// versions the lock file pins), as the local stand-in runs it.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const deno = (require('deno/install_api.cjs') as { runInstall(): string }).runInstall();
const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('account in Deno', () => {
  it('type-checks index.ts and everything it imports with Deno’s own types', async () => {
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        deno,
        [
          'check',
          '--config',
          'supabase/functions/account/deno.json',
          '--node-modules-dir=manual',
          'supabase/functions/account/index.ts',
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
