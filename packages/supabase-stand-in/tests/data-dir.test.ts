// A developer's local data (accounts, tiers, uploaded files) survives the move of the stand-in's
// data folder: the old folder is moved into place once, and never over data already there.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptOldDataDir, DEFAULT_DATA_DIR, OLD_DATA_DIR } from '../server.mjs';

let base = '';
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

function folders() {
  base = mkdtempSync(path.join(os.tmpdir(), 'stand-in-data-'));
  const from = path.join(base, 'supabase', '.local-data');
  const to = path.join(base, 'packages', 'supabase-stand-in', '.data');
  return { from, to };
}

describe('the local data folder', () => {
  it('lives in the package, and the old one is the folder inside supabase/', () => {
    expect(path.relative(process.cwd(), DEFAULT_DATA_DIR)).toBe(path.join('packages', 'supabase-stand-in', '.data'));
    expect(path.relative(process.cwd(), OLD_DATA_DIR)).toBe(path.join('supabase', '.local-data'));
  });

  it('moves the old folder into place, with what it held', async () => {
    const { from, to } = folders();
    mkdirSync(path.join(from, 'db'), { recursive: true });
    writeFileSync(path.join(from, 'db', 'PG_VERSION'), '17');
    expect(await adoptOldDataDir(from, to)).toBe(true);
    expect(readFileSync(path.join(to, 'db', 'PG_VERSION'), 'utf8')).toBe('17');
    expect(existsSync(from)).toBe(false);
  });

  it('leaves both alone when the new folder already has data, and does nothing without an old one', async () => {
    const { from, to } = folders();
    mkdirSync(from, { recursive: true });
    writeFileSync(path.join(from, 'old'), 'old');
    mkdirSync(to, { recursive: true });
    writeFileSync(path.join(to, 'new'), 'new');
    expect(await adoptOldDataDir(from, to)).toBe(false);
    expect(readFileSync(path.join(from, 'old'), 'utf8')).toBe('old');
    expect(existsSync(path.join(to, 'old'))).toBe(false);
    rmSync(from, { recursive: true });
    rmSync(to, { recursive: true });
    expect(await adoptOldDataDir(from, to)).toBe(false);
    expect(existsSync(to)).toBe(false);
  });
});
