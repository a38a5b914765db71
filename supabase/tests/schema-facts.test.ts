// scripts/checks/schema-facts.mjs proved that squashing the migrations into the baseline changed no
// catalog fact (docs/database.md, "Migrations"). These tests keep that tool honest on the db
// project's PostgreSQL 17 server: the same chain twice gives the same facts, and a chain that
// differs by one grant, one function body, one policy, one publication option or one column
// default is told apart, while a changed comment is reported as a comment only.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { difference, factsOfChain } from '../../scripts/checks/schema-facts.mjs';
import { listMigrations } from '../../packages/supabase-stand-in/db.mjs';
import { serverAt } from '../../packages/supabase-stand-in/test-servers/pg-server.mjs';

const chain = listMigrations().map((m) => ({ name: path.basename(m.file), sql: readFileSync(m.file, 'utf8') }));
const unique = (label: string) => `facts_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

type Facts = Awaited<ReturnType<typeof factsOfChain>>;

describe('schema facts', () => {
  const server = serverAt(inject('postgres'));
  let base: Facts;

  beforeAll(async () => {
    base = await factsOfChain(server, unique('base'), chain);
  });

  it('are the same for the same migrations, built twice', async () => {
    const again = await factsOfChain(server, unique('again'), chain);
    expect(difference(base.facts, again.facts)).toEqual({ onlyA: [], onlyB: [] });
    expect(difference(base.comments, again.comments)).toEqual({ onlyA: [], onlyB: [] });
    expect(base.facts.length).toBeGreaterThan(300);
  });

  it('tell apart a grant, a function body, a policy, a publication option and a default; a comment only as a comment', async () => {
    const changed = await factsOfChain(server, unique('changed'), [
      ...chain,
      {
        name: 'probe.sql',
        sql: `
          grant execute on function private.tier_source_of(uuid) to authenticated;
          create or replace function public.tier_rank(tier text) returns integer language sql immutable
            parallel safe set search_path = '' as $$ select 0 $$;
          drop policy "Staff read tier grants" on public.tier_grants;
          alter publication supabase_realtime set (publish = 'insert, update, delete');
          alter table public.staff alter column note set default 'x';
          comment on table public.staff is 'Reworded.';`,
      },
    ]);
    const { onlyA, onlyB } = difference(base.facts, changed.facts);
    const sections = (lines: string[]) => lines.map((line) => line.split(':')[0]).sort();
    expect(sections(onlyA)).toEqual(['column', 'function', 'function', 'policy', 'publication']);
    expect(sections(onlyB)).toEqual(['column', 'function', 'function', 'publication']);
    expect(onlyB.find((line) => line.startsWith('function: private.tier_source_of'))).toMatch(
      /authenticated=EXECUTE\/postgres/,
    );
    expect(onlyB.find((line) => line.startsWith('publication:'))).toMatch(/delete=true/);
    expect(difference(base.comments, changed.comments)).toEqual({
      // The dropped policy's comment goes with it.
      onlyA: [
        expect.stringMatching(/^comment: policy Staff read tier grants on table tier_grants: /),
        expect.stringMatching(/^comment: table staff: Users who may manage tiers/),
      ],
      onlyB: ['comment: table staff: Reworded.'],
    });
  });
});
