// The kinds of file the resources bucket holds are written once, in
// supabase/functions/_shared/resource-types.ts, for the upload page, the members' page and the
// download function. The database holds the same rule twice over (the name rule every resources
// policy uses, and the bucket's allowed types); this keeps both equal to the list. The same for
// the player's speeds, which the database keeps per member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYBACK_RATES } from '../functions/_shared/playback';
import { RESOURCE_TYPES } from '../functions/_shared/resource-types';
import { demo } from './helpers';
import { createServerDatabase, type Database } from './server-database';

let db: Database;

beforeAll(async () => {
  db = await createServerDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe('the resource types', () => {
  it('are exactly the extensions resource_path_tier takes', async () => {
    const candidates = [...Object.keys(RESOURCE_TYPES), 'wav', 'mov', 'webm', 'txt', 'docx', 'svg', 'html', 'ogg'];
    const { rows } = await db.query<{ extension: string }>(
      `select extension from unnest($1::text[]) as extension
       where public.resource_path_tier('ebook/ebook/file.' || extension) is not null
         and public.resource_path_tier('ebook/ebook/FILE.' || upper(extension)) is not null
       order by 1`,
      [candidates],
    );
    expect(rows.map((row) => row.extension)).toEqual(Object.keys(RESOURCE_TYPES).sort());
  });

  it('are exactly the content types the resources bucket allows', async () => {
    const { rows } = await db.query<{ allowed_mime_types: string[] }>(
      `select allowed_mime_types from storage.buckets where id = 'resources'`,
    );
    const contentTypes = Object.values(RESOURCE_TYPES).map((type) => type.contentType);
    expect([...(rows[0]?.allowed_mime_types ?? [])].sort()).toEqual([...contentTypes].sort());
  });
});

describe('the playback speeds', () => {
  it('are exactly the ones set_playback_rate takes', async () => {
    const candidates = [0.5, ...PLAYBACK_RATES, 1.1, 2.25, 3];
    const taken: number[] = [];
    await db.query('begin');
    try {
      await db.query(`set local role authenticated`);
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: demo.foundation, role: 'authenticated' }),
      ]);
      for (const rate of candidates) {
        await db.query('savepoint speed');
        try {
          await db.query('select public.set_playback_rate($1)', [rate]);
          taken.push(rate);
        } catch {
          await db.query('rollback to savepoint speed');
        }
      }
    } finally {
      await db.query('rollback');
    }
    expect(taken).toEqual([...PLAYBACK_RATES]);
  });
});
