// src/types/database.ts is generated (npm run db:types), never hand-written: these tests
// regenerate it from the migrations in-process and fail when the checked-in file drifts.
import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDatabaseTypes, generateFromMigrations, typesFile } from '../../scripts/dev/db-types.mjs';
import { createDatabase } from '../../packages/supabase-stand-in/db.mjs';

const checkedIn = readFileSync(typesFile, 'utf8');

describe('src/types/database.ts', () => {
  it('is exactly what `npm run db:types` generates from the migrations (run it and commit the file)', async () => {
    expect(checkedIn).toBe(await generateFromMigrations());
  });
});

describe('generateDatabaseTypes', () => {
  let db: PGlite;

  beforeAll(async () => {
    db = await createDatabase({ seed: false });
  });

  afterAll(async () => {
    if (db && !db.closed) await db.close();
  });

  it('sees a column a new migration adds, so the comparison above catches drift', async () => {
    await db.exec(`alter table public.profiles add column drift_probe text`);
    const types = await generateDatabaseTypes(db);
    expect(types).not.toBe(checkedIn);
    expect(types).toContain('drift_probe: string | null;');
    expect(checkedIn).not.toContain('drift_probe');
  });
});
