// @ts-check
// Which Chromium the end-to-end tests drive. One resolver, used by playwright.config.ts (to
// launch it) and by scripts/dev/ensure-browser.mjs (to check it starts, or install one first),
// so the two cannot disagree.
import { accessSync, constants, openSync, readSync, closeSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Launch arguments for every run: headless as root in containers, no background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Browsers looked up on PATH, in this order. */
export const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** Where a Mac keeps them outside PATH. */
export const MAC_APPS = [
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/**
 * @typedef {object} Facts what the resolver may look at; tests pass their own
 * @property {Record<string, string | undefined>} env
 * @property {string} platform `process.platform`
 * @property {string | undefined} playwrightExecutable what Playwright launches headless when
 *   given no executablePath (its Chrome Headless Shell), whether or not it is installed
 * @property {(file: string) => boolean} isExecutable an executable regular file
 * @property {(file: string) => boolean} isSnap a snap, or Ubuntu's stub that runs one
 *
 * @typedef {object} Found
 * @property {'CHROMIUM_PATH' | 'playwright' | 'system' | 'none'} source
 * @property {string} [executablePath] for Playwright's launchOptions; absent for its own browser
 * @property {string} [problem] why CHROMIUM_PATH cannot be used
 */

/**
 * CHROMIUM_PATH if set (even when it points nowhere: then `problem` says so), else
 * Playwright's own installed browser, else a Chrome or Chromium already on the machine.
 * Snaps are skipped: their confinement hides the profile directory Playwright makes in /tmp.
 * @param {Facts} facts
 * @returns {Found}
 */
export function findChromium(facts = liveFacts()) {
  const explicit = facts.env.CHROMIUM_PATH;
  if (explicit) {
    return facts.isExecutable(explicit)
      ? { source: 'CHROMIUM_PATH', executablePath: explicit }
      : { source: 'CHROMIUM_PATH', executablePath: explicit, problem: 'is not an executable file' };
  }
  if (facts.playwrightExecutable && facts.isExecutable(facts.playwrightExecutable)) return { source: 'playwright' };

  const sep = facts.platform === 'win32' ? ';' : ':';
  const dirs = (facts.env.PATH ?? '').split(sep).filter(Boolean);
  const candidates = [
    ...PATH_NAMES.flatMap((name) => dirs.map((dir) => path.join(dir, name))),
    ...(facts.platform === 'darwin' ? MAC_APPS : []),
  ];
  const system = candidates.find((file) => facts.isExecutable(file) && !facts.isSnap(file));
  return system ? { source: 'system', executablePath: system } : { source: 'none' };
}

/** Playwright's launchOptions for what findChromium found. */
export function launchOptions(/** @type {Found} */ found) {
  return { ...(found.executablePath ? { executablePath: found.executablePath } : {}), args: CHROMIUM_ARGS };
}

/** @returns {Facts} the real machine's */
export function liveFacts() {
  return {
    env: process.env,
    platform: process.platform,
    playwrightExecutable: playwrightHeadlessShell(),
    isExecutable,
    isSnap,
  };
}

/**
 * The Chrome Headless Shell Playwright launches for headless Chromium with no executablePath.
 * Its public `chromium.executablePath()` names the full browser instead, so ask its registry
 * (scripts/dev/browser.test.ts checks this still works after a Playwright upgrade).
 */
export function playwrightHeadlessShell() {
  try {
    // Playwright's internals ship no types: the one call used here, typed by hand.
    /** @type {{ registry: { registry: { findExecutable(name: string): { executablePath(): string | undefined } | undefined } } }} */
    const { registry } = createRequire(import.meta.url)('playwright-core/lib/coreBundle');
    return registry.registry.findExecutable('chromium-headless-shell')?.executablePath() || undefined;
  } catch {
    return undefined;
  }
}

function isExecutable(/** @type {string} */ file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isSnap(/** @type {string} */ file) {
  try {
    if (realpathSync(file).startsWith('/snap/')) return true;
    // Ubuntu's chromium-browser package is a shell script that execs /snap/bin/chromium.
    const fd = openSync(file, 'r');
    try {
      const head = Buffer.alloc(4096);
      const length = readSync(fd, head, 0, head.length, 0);
      const text = head.subarray(0, length).toString('latin1');
      return text.startsWith('#!') && text.includes('/snap/');
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
