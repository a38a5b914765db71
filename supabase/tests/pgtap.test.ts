// The pgTAP files (supabase/tests/database/*.test.sql), as `supabase test db` runs them: each
// on its own database built from the bootstrap, the migrations and the seed, on the real
// PostgreSQL server of the db project's global setup. Every TAP line becomes a test here, so
// the counts show; a file must also run to its end without an error and report its plan.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { cloneDatabase, serverAt } from '../../packages/supabase-stand-in/test-servers/pg-server.mjs';
import { runTapFile, splitStatements } from '../../packages/supabase-stand-in/test-servers/pgtap.mjs';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'database');
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.test.sql'))
  .sort();
const server = serverAt(inject('postgres'));

it('finds the pgTAP files', () => {
  expect(files).toEqual(
    expect.arrayContaining([
      'anon.test.sql',
      'pre_confirmation_password.test.sql',
      'privileges.test.sql',
      'rls.test.sql',
      'service_role.test.sql',
      'staff.test.sql',
      'subscribers.test.sql',
    ]),
  );
});

for (const file of files) {
  const run = await runTapFile(
    server.connection(await cloneDatabase(server, { prefix: 'pgtap' })),
    path.join(dir, file),
  );
  console.log(`pgTAP ${file}: ${run.tests.filter((t) => t.ok).length} of ${run.planned ?? '?'} planned passed`);

  describe(`pgTAP ${file}`, () => {
    it('runs to its end without an error and reports every planned test', () => {
      expect(run.error).toBeUndefined();
      expect(run.tests.map((t) => t.number)).toEqual(Array.from({ length: run.planned ?? -1 }, (_, i) => i + 1));
    });

    for (const test of run.tests)
      it(`${test.number} ${test.description}`, () => {
        expect(test.ok || /^TODO/i.test(test.directive ?? ''), [test.description, ...test.diagnostics].join('\n')).toBe(
          true,
        );
      });
  });
}

describe('the pgTAP runner', () => {
  it('splits statements as psql does: not inside quotes, dollar quotes, comments or parentheses', () => {
    expect(
      splitStatements(`select 'a;b', "x;y" from t; -- c;d
        select $$ e; $$, $tag$ f; $tag$ /* g; /* h; */ i; */;
        create function p() returns int language sql as $$ select 1; select 2 $$;
        select e'it\\'s; fine', (select 1; );`).map((s) => s.trim()),
    ).toEqual([
      `select 'a;b', "x;y" from t;`,
      `-- c;d
        select $$ e; $$, $tag$ f; $tag$ /* g; /* h; */ i; */;`,
      `create function p() returns int language sql as $$ select 1; select 2 $$;`,
      `select e'it\\'s; fine', (select 1; );`,
    ]);
  });

  it('reports a failed assertion, a missing plan entry and the error that stopped a file', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'yyc-pgtap-probe-'));
    try {
      const file = path.join(work, 'probe.test.sql');
      writeFileSync(
        file,
        `begin;
         create extension if not exists pgtap with schema extensions;
         set local search_path = public, extensions;
         select plan(3);
         select ok(true, 'passes');
         select is(1, 2, 'fails');
         select no_such_function();
         select ok(true, 'never runs');
         rollback;`,
      );
      const run = await runTapFile(server.connection(await cloneDatabase(server, { prefix: 'pgtap' })), file);
      expect(run.passed).toBe(false);
      expect(run.planned).toBe(3);
      expect(run.tests.map((t) => [t.number, t.ok, t.description])).toEqual([
        [1, true, 'passes'],
        [2, false, 'fails'],
      ]);
      expect(run.tests[1]?.diagnostics.join('\n')).toContain('have: 1');
      expect(run.error).toMatchObject({ code: '42883', statement: 'select no_such_function();' });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
