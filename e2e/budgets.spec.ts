import { fileURLToPath } from 'node:url';
import { checkBudgets, formatReport } from '../scripts/checks/check-budgets.mjs';
import { expect, test } from './fixtures';

// The bundle budgets, checked on the dist/ this run's web server has just built (see
// playwright.config.ts), so the README's test command fails when a public page outgrows them.
// One test per kind of check; each lists every failure by name (scripts/checks/check-budgets.mjs).

const distDir = fileURLToPath(new URL('../dist', import.meta.url));
const srcDir = fileURLToPath(new URL('../src', import.meta.url));

// Read when a test runs, not when the file is loaded: Playwright lists the tests before its
// web server builds the site.
let result: ReturnType<typeof checkBudgets> | undefined;
function failures(...checks: string[]) {
  result ??= checkBudgets({ distDir, srcDir });
  return result.failures.filter((failure) => checks.includes(failure.check)).map((failure) => failure.message);
}
const report = () => (result ? formatReport(result) : '');

test('the public pages’ initial JavaScript, CSS and HTML stay within their budgets', () => {
  expect(failures('js', 'css', 'html'), report()).toEqual([]);
});

test('supabase-js, zod, react-query and Radix dialog/tabs stay out of the initial chunks of /, /bundles and /upgrade', () => {
  expect(failures('forbidden')).toEqual([]);
});

test('every public page is prerendered with its heading, title, description, canonical and share tags', () => {
  expect(failures('prerender')).toEqual([]);
});

test('every <img> and <iframe> has a width and a height, in the source and in the prerendered pages', () => {
  expect(failures('media')).toEqual([]);
});

test('npm run perf times every internal link of the documents', async () => {
  const { LINKS } = await import('../scripts/bench/journeys.mjs');
  const { documentPages } = await import('../src/config/paths');
  const { pageFile } = await import('../src/app/head');
  const { readFileSync } = await import('node:fs');
  const built: { from: string; to: string }[] = [];
  for (const from of documentPages) {
    const html = readFileSync(`${distDir}/${pageFile(from)}`, 'utf8');
    const pages = [...html.matchAll(/<a\b[^>]*\bhref="(\/[^"#?]*)(?:\?[^"]*)?"/g)].map((match) => match[1] ?? '');
    for (const to of new Set(pages)) if (to !== from) built.push({ from, to });
  }
  const key = (link: { from: string; to: string }) => `${link.from} → ${link.to}`;
  expect(LINKS.map(key).sort()).toEqual(built.map(key).sort());
});
