#!/usr/bin/env node
// @ts-check
// Part of `npm test`, before `playwright test`: make sure the Chromium that
// playwright.config.ts will launch (scripts/dev/browser.mjs decides) exists and starts, installing
// one if the machine has none. Order: CHROMIUM_PATH, Playwright's installed browser, a Chrome
// or Chromium on the machine, `npx playwright install chromium`, and, as root on Debian,
// `apt-get install chromium`. Anything else ends in one line saying what to run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium, launchOptions } from './browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PLAYWRIGHT_CLI = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');
/** A real download takes a minute or two; a refused one fails in seconds, a black hole hangs. */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
const APT_TIMEOUT_MS = 15 * 60_000;

/**
 * @typedef {import('./browser.mjs').Found} Found
 * @typedef {object} Machine
 * @property {string} platform `process.platform`
 * @property {boolean} isRoot
 * @property {boolean} debianApt apt-get on Debian (or a derivative other than Ubuntu, whose
 *   chromium package is a snap)
 * @property {boolean} ubuntuApt apt-get on Ubuntu or a derivative
 * @typedef {object} Steps the side effects, passed in so the order can be tested
 * @property {() => Found} find
 * @property {(found: Found) => Promise<string | undefined>} launch the error, if it did not start
 * @property {() => boolean} installPlaywright `npx playwright install chromium`
 * @property {() => boolean} installPlaywrightDeps `npx playwright install-deps chromium`
 * @property {() => boolean} installDebianChromium `apt-get install chromium`
 * @property {(line: string) => void} log
 */

/**
 * @param {Machine} machine
 * @param {Steps} steps
 * @returns {Promise<{ ok: true, found: Found } | { ok: false, advice: string }>}
 */
export async function ensureBrowser(machine, steps) {
  const aptRoot = machine.platform === 'linux' && machine.isRoot;
  let found = steps.find();

  if (found.source === 'CHROMIUM_PATH') {
    const error = found.problem ?? (await steps.launch(found));
    if (!error) return { ok: true, found };
    return {
      ok: false,
      advice: `CHROMIUM_PATH=${found.executablePath} ${found.problem ? error : `does not start (${error})`}: point it at a Chrome or Chromium executable, or unset it.`,
    };
  }

  if (found.source === 'none') {
    steps.log('No Chromium found: trying `npx playwright install chromium`…');
    steps.installPlaywright();
    found = steps.find();
  }

  if (found.source === 'none' && aptRoot && machine.debianApt) {
    steps.log("Playwright's download failed: installing Debian's chromium package…");
    steps.installDebianChromium();
    found = steps.find();
  }

  if (found.source === 'none') return { ok: false, advice: adviceWhenMissing(machine) };

  let error = await steps.launch(found);
  if (error && found.source === 'playwright' && aptRoot && (machine.debianApt || machine.ubuntuApt)) {
    steps.log(`Playwright's Chromium does not start (${error}): installing its system libraries…`);
    steps.installPlaywrightDeps();
    error = await steps.launch(found);
  }
  if (!error) return { ok: true, found };

  if (found.source === 'playwright')
    return {
      ok: false,
      advice: `Playwright's Chromium does not start (${error}): run \`${machine.isRoot ? '' : 'sudo '}npx playwright install-deps chromium\`, then \`npm test\` again.`,
    };
  return {
    ok: false,
    advice: `${found.executablePath} does not start (${error}): set CHROMIUM_PATH to a Chrome or Chromium that does, then run \`npm test\` again.`,
  };
}

/** The one command that gets a browser onto this kind of machine. */
export function adviceWhenMissing(/** @type {Machine} */ machine) {
  const again = 'then `npm test` again (or set CHROMIUM_PATH to a Chrome or Chromium).';
  if (machine.platform === 'linux' && machine.debianApt)
    return machine.isRoot
      ? `No Chromium: Playwright's download and \`apt-get install chromium\` both failed; with network access run \`apt-get update && apt-get install -y chromium\`, ${again}`
      : `No Chromium: run \`sudo apt-get update && sudo apt-get install -y chromium\`, ${again}`;
  if (machine.platform === 'linux')
    return `No Chromium: Playwright's download failed; with internet access run \`npx playwright install --with-deps chromium\`, ${again}`;
  return `No Chromium: Playwright's download failed; with internet access run \`npx playwright install chromium\`, ${again}`;
}

/** @returns {Machine} */
function liveMachine() {
  /** @type {string[]} */
  let ids = [];
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    const field = (/** @type {string} */ name) => new RegExp(`^${name}=["']?([^"'\\n]*)`, 'm').exec(release)?.[1] ?? '';
    ids = `${field('ID')} ${field('ID_LIKE')}`.toLowerCase().split(/\s+/).filter(Boolean);
  } catch {
    // not Linux, or no os-release: no apt step
  }
  const apt = process.platform === 'linux' && onPath('apt-get');
  const ubuntu = ids.includes('ubuntu');
  return {
    platform: process.platform,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    debianApt: apt && ids.includes('debian') && !ubuntu,
    ubuntuApt: apt && ubuntu,
  };
}

function onPath(/** @type {string} */ name) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, name)));
}

function run(/** @type {string} */ command, /** @type {string[]} */ args, /** @type {number} */ timeout, env = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout,
    killSignal: 'SIGKILL',
    env: { ...process.env, ...env },
  });
  if (/** @type {NodeJS.ErrnoException | undefined} */ (result.error)?.code === 'ETIMEDOUT')
    console.error(`${command} ${args.join(' ')}: gave up after ${timeout / 1000} s`);
  return result.status === 0;
}

/** @type {Steps} */
const liveSteps = {
  find: () => findChromium(),
  async launch(found) {
    const { chromium } = await import('@playwright/test');
    try {
      const browser = await chromium.launch({ ...launchOptions(found), timeout: 60_000 });
      await browser.close();
      return undefined;
    } catch (error) {
      return firstLine(error instanceof Error ? error.message : String(error));
    }
  },
  installPlaywright: () => run(process.execPath, [PLAYWRIGHT_CLI, 'install', 'chromium'], DOWNLOAD_TIMEOUT_MS),
  installPlaywrightDeps: () => run(process.execPath, [PLAYWRIGHT_CLI, 'install-deps', 'chromium'], APT_TIMEOUT_MS),
  installDebianChromium: () =>
    run('apt-get', ['update', '-qq'], APT_TIMEOUT_MS) &&
    run('apt-get', ['install', '-y', '-qq', 'chromium'], APT_TIMEOUT_MS, { DEBIAN_FRONTEND: 'noninteractive' }),
  log: (line) => console.error(line),
};

/** Playwright's launch errors are multi-line, often boxed: keep the first thing they say. */
export function firstLine(/** @type {string} */ message) {
  const lines = message
    .replace(/^browserType\.launch:\s*/, '')
    .split('\n')
    .map((line) => line.replace(/[╔╗╚╝║═]/g, '').trim())
    .filter(Boolean);
  return lines[0] ?? 'no reason given';
}

function describe(/** @type {Found} */ found) {
  if (found.source === 'playwright') return "Playwright's own Chromium";
  return `${found.executablePath}${found.source === 'CHROMIUM_PATH' ? ' (CHROMIUM_PATH)' : ''}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await ensureBrowser(liveMachine(), liveSteps);
  if (result.ok) {
    console.log(`End-to-end tests will use ${describe(result.found)}.`);
  } else {
    console.error(result.advice);
    process.exit(1);
  }
}
