import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findChromium, launchOptions, liveFacts, playwrightHeadlessShell } from './browser.mjs';
import { adviceWhenMissing, ensureBrowser, firstLine } from './ensure-browser.mjs';

const SHELL = '/home/dev/.cache/ms-playwright/chromium_headless_shell-1/chrome-headless-shell';

type Facts = NonNullable<Parameters<typeof findChromium>[0]>;

/** A machine whose executable files are exactly `files` (and whose snaps are `snaps`). */
function machine({ env = {}, files = [] as string[], snaps = [] as string[], platform = 'linux' } = {}): Facts {
  return {
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', ...env },
    platform,
    playwrightExecutable: SHELL,
    isExecutable: (file) => files.includes(file),
    isSnap: (file) => snaps.includes(file),
  };
}

describe('findChromium', () => {
  it('takes CHROMIUM_PATH over everything else', () => {
    const facts = machine({ env: { CHROMIUM_PATH: '/opt/chrome/chrome' }, files: ['/opt/chrome/chrome', SHELL] });
    expect(findChromium(facts)).toEqual({ source: 'CHROMIUM_PATH', executablePath: '/opt/chrome/chrome' });
  });

  it('reports a CHROMIUM_PATH that points nowhere instead of falling back', () => {
    const facts = machine({ env: { CHROMIUM_PATH: '/nowhere/chrome' }, files: [SHELL, '/usr/bin/chromium'] });
    expect(findChromium(facts)).toEqual({
      source: 'CHROMIUM_PATH',
      executablePath: '/nowhere/chrome',
      problem: 'is not an executable file',
    });
  });

  it("uses Playwright's own browser with no executablePath", () => {
    const found = findChromium(machine({ files: [SHELL, '/usr/bin/chromium'] }));
    expect(found).toEqual({ source: 'playwright' });
    expect(launchOptions(found)).toEqual({ args: CHROMIUM_ARGS });
  });

  it('falls back to the first Chromium or Chrome on PATH', () => {
    const files = ['/usr/bin/google-chrome', '/usr/bin/chromium-browser'];
    const found = findChromium(machine({ files }));
    expect(found).toEqual({ source: 'system', executablePath: '/usr/bin/chromium-browser' });
    expect(launchOptions(found)).toEqual({ executablePath: '/usr/bin/chromium-browser', args: CHROMIUM_ARGS });
  });

  it('prefers an earlier PATH directory for the same name', () => {
    const files = ['/usr/local/bin/chromium', '/usr/bin/chromium'];
    expect(findChromium(machine({ files }))).toEqual({ source: 'system', executablePath: '/usr/local/bin/chromium' });
  });

  it("skips Ubuntu's snap stub for the next candidate", () => {
    const facts = machine({
      files: ['/usr/bin/chromium-browser', '/usr/bin/google-chrome'],
      snaps: ['/usr/bin/chromium-browser'],
    });
    expect(findChromium(facts)).toEqual({ source: 'system', executablePath: '/usr/bin/google-chrome' });
  });

  it('finds Chrome in /Applications on a Mac only', () => {
    const app = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChromium(machine({ platform: 'darwin', files: [app] }))).toEqual({
      source: 'system',
      executablePath: app,
    });
    expect(findChromium(machine({ platform: 'linux', files: [app] }))).toEqual({ source: 'none' });
  });

  it('finds nothing when there is nothing', () => {
    expect(findChromium(machine({ files: ['/usr/bin/firefox'] }))).toEqual({ source: 'none' });
    expect(findChromium({ ...machine(), env: {}, playwrightExecutable: undefined })).toEqual({ source: 'none' });
  });

  it("still locates Playwright's headless shell in this Playwright version", () => {
    const shell = playwrightHeadlessShell();
    expect(shell).toMatch(/chrome-headless-shell(\.exe)?$/);
    expect(path.isAbsolute(shell ?? '')).toBe(true);
  });
});

type Machine = Parameters<typeof ensureBrowser>[0];
type Found = ReturnType<typeof findChromium>;

const debianRoot: Machine = { platform: 'linux', isRoot: true, debianApt: true, ubuntuApt: false };

/**
 * A scripted machine: `find` answers from `finds` in turn (repeating the last), `starts`
 * says whether a found browser launches; every step taken is recorded in `taken`.
 */
function script({ finds, starts = () => true }: { finds: Found[]; starts?: (found: Found, tries: number) => boolean }) {
  const taken: string[] = [];
  let calls = 0;
  let launches = 0;
  const steps = {
    find: () => finds[Math.min(calls++, finds.length - 1)]!,
    launch: async (found: Found) => {
      taken.push(`launch ${found.source}`);
      return starts(found, ++launches) ? undefined : 'libnss3.so: cannot open shared object file';
    },
    installPlaywright: () => (taken.push('playwright install'), true),
    installPlaywrightDeps: () => (taken.push('playwright install-deps'), true),
    installDebianChromium: () => (taken.push('apt-get install chromium'), true),
    log: () => {},
  };
  return { steps, taken };
}

const NONE: Found = { source: 'none' };
const PLAYWRIGHT: Found = { source: 'playwright' };
const DEBIAN: Found = { source: 'system', executablePath: '/usr/bin/chromium' };

describe('ensureBrowser', () => {
  it('installs nothing when a browser is found and starts', async () => {
    const { steps, taken } = script({ finds: [DEBIAN] });
    expect(await ensureBrowser(debianRoot, steps)).toEqual({ ok: true, found: DEBIAN });
    expect(taken).toEqual(['launch system']);
  });

  it("downloads Playwright's browser when there is none", async () => {
    const { steps, taken } = script({ finds: [NONE, PLAYWRIGHT] });
    expect(await ensureBrowser(debianRoot, steps)).toEqual({ ok: true, found: PLAYWRIGHT });
    expect(taken).toEqual(['playwright install', 'launch playwright']);
  });

  it("installs Debian's chromium as root when the download fails", async () => {
    const { steps, taken } = script({ finds: [NONE, NONE, DEBIAN] });
    expect(await ensureBrowser(debianRoot, steps)).toEqual({ ok: true, found: DEBIAN });
    expect(taken).toEqual(['playwright install', 'apt-get install chromium', 'launch system']);
  });

  it('does not use apt-get when not root, and says what to run', async () => {
    const { steps, taken } = script({ finds: [NONE] });
    const result = await ensureBrowser({ ...debianRoot, isRoot: false }, steps);
    expect(taken).toEqual(['playwright install']);
    expect(result).toEqual({
      ok: false,
      advice:
        'No Chromium: run `sudo apt-get update && sudo apt-get install -y chromium`, then `npm test` again (or set CHROMIUM_PATH to a Chrome or Chromium).',
    });
  });

  it("does not apt-get Ubuntu's snap-only chromium", async () => {
    const { steps, taken } = script({ finds: [NONE] });
    const result = await ensureBrowser({ ...debianRoot, debianApt: false, ubuntuApt: true }, steps);
    expect(taken).toEqual(['playwright install']);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.advice).toContain('`npx playwright install --with-deps chromium`');
  });

  it("installs the system libraries for Playwright's browser when it does not start", async () => {
    const { steps, taken } = script({ finds: [NONE, PLAYWRIGHT], starts: (_found, tries) => tries > 1 });
    expect(await ensureBrowser(debianRoot, steps)).toEqual({ ok: true, found: PLAYWRIGHT });
    expect(taken).toEqual(['playwright install', 'launch playwright', 'playwright install-deps', 'launch playwright']);
  });

  it('names the install-deps command when it cannot run it', async () => {
    const { steps } = script({ finds: [PLAYWRIGHT], starts: () => false });
    expect(
      await ensureBrowser({ platform: 'darwin', isRoot: false, debianApt: false, ubuntuApt: false }, steps),
    ).toEqual({
      ok: false,
      advice:
        "Playwright's Chromium does not start (libnss3.so: cannot open shared object file): run `sudo npx playwright install-deps chromium`, then `npm test` again.",
    });
  });

  it('stops at a CHROMIUM_PATH that points nowhere, installing nothing', async () => {
    const found: Found = { source: 'CHROMIUM_PATH', executablePath: '/nowhere', problem: 'is not an executable file' };
    const { steps, taken } = script({ finds: [found] });
    expect(await ensureBrowser(debianRoot, steps)).toEqual({
      ok: false,
      advice:
        'CHROMIUM_PATH=/nowhere is not an executable file: point it at a Chrome or Chromium executable, or unset it.',
    });
    expect(taken).toEqual([]);
  });

  it('stops at a CHROMIUM_PATH that does not start', async () => {
    const found: Found = { source: 'CHROMIUM_PATH', executablePath: '/bin/true' };
    const { steps, taken } = script({ finds: [found], starts: () => false });
    const result = await ensureBrowser(debianRoot, steps);
    expect(!result.ok && result.advice).toMatch(/^CHROMIUM_PATH=\/bin\/true does not start \(libnss3/);
    expect(taken).toEqual(['launch CHROMIUM_PATH']);
  });

  it('gives one line of advice for every kind of machine', () => {
    const machines: Machine[] = [
      debianRoot,
      { ...debianRoot, isRoot: false },
      { platform: 'linux', isRoot: false, debianApt: false, ubuntuApt: true },
      { platform: 'darwin', isRoot: false, debianApt: false, ubuntuApt: false },
    ];
    for (const m of machines) {
      const advice = adviceWhenMissing(m);
      expect(advice).not.toContain('\n');
      expect(advice).toMatch(/run `[^`]+`/);
    }
    expect(adviceWhenMissing(machines[3]!)).toContain('`npx playwright install chromium`');
  });

  it("keeps the first thing Playwright's boxed launch errors say", () => {
    const message = [
      'browserType.launch: ',
      '╔══════════════════════════════════════════════════════╗',
      '║ Host system is missing dependencies to run browsers. ║',
      '╚══════════════════════════════════════════════════════╝',
    ].join('\n');
    expect(firstLine(message)).toBe('Host system is missing dependencies to run browsers.');
    expect(firstLine("browserType.launch: Executable doesn't exist at /x\nmore")).toBe(
      "Executable doesn't exist at /x",
    );
  });
});

describe('the live machine', () => {
  it('tells executables from directories and snap stubs from wrappers', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'browser-test-'));
    try {
      const stub = path.join(dir, 'chromium-browser');
      writeFileSync(stub, '#!/bin/sh\nexec /snap/bin/chromium "$@"\n');
      const wrapper = path.join(dir, 'chromium');
      writeFileSync(wrapper, '#!/bin/sh\nexec /usr/lib/chromium/chromium "$@"\n');
      const plain = path.join(dir, 'readme');
      writeFileSync(plain, 'not a program');
      chmodSync(stub, 0o755);
      chmodSync(wrapper, 0o755);
      const facts = liveFacts();
      expect([facts.isExecutable(stub), facts.isSnap(stub)]).toEqual([true, true]);
      expect([facts.isExecutable(wrapper), facts.isSnap(wrapper)]).toEqual([true, false]);
      expect(facts.isExecutable(plain)).toBe(false);
      expect(facts.isExecutable(dir)).toBe(false);
      expect(facts.isExecutable(path.join(dir, 'missing'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
