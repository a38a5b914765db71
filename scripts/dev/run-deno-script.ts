// Runs one of package.json's Deno scripts as `npm run <name>` would (its own command line, with
// the pinned Deno binary), for the simulators' tests: the exit code and everything it printed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { denoExecutable } from '../../packages/supabase-stand-in/functions/service.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The script's arguments after `deno`; throws when package.json does not run it with Deno. */
function denoArguments(name: string): string[] {
  const scripts = (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const [command, ...args] = (scripts[name] ?? '').split(' ');
  if (command !== 'deno') throw new Error(`package.json's ${name} does not run deno: ${scripts[name]}`);
  return args;
}

/**
 * Runs `name` with `args`, with `env` added to this process's and `unset` removed (so a
 * developer's own secrets never reach the run).
 */
export function runDenoScript(
  name: string,
  args: string[],
  env: Record<string, string>,
  unset: string[],
): Promise<{ code: number; output: string }> {
  const runEnv: NodeJS.ProcessEnv = { ...process.env, ...env, NO_COLOR: '1' };
  for (const key of unset) delete runEnv[key];
  return new Promise((resolve) => {
    execFile(denoExecutable(), [...denoArguments(name), ...args], { cwd: root, env: runEnv }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}
