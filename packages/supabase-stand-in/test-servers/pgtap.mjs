// @ts-check
// Runs a pgTAP file the way pg_prove does (psql -f with ON_ERROR_STOP): the file is split
// into statements as psql splits it, each is sent on its own, the first error stops the
// file, and the TAP lines in the output are parsed. Used by supabase/tests/pgtap.test.ts.
import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * Splits SQL into statements at top-level semicolons, as psql does: not inside quotes,
 * double-quoted identifiers, dollar quotes, comments or parentheses.
 * @param {string} sql
 * @returns {string[]}
 */
export function splitStatements(sql) {
  /** @type {string[]} */
  const statements = [];
  let start = 0;
  let depth = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
    } else if (c === '/' && next === '*') {
      let nesting = 1;
      i += 2;
      while (i < n && nesting > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          nesting += 1;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          nesting -= 1;
          i += 2;
        } else i += 1;
      }
    } else if (c === "'") {
      const escapes = i > 0 && /[eE]/.test(sql[i - 1] ?? '') && !/[\w$]/.test(sql[i - 2] ?? '');
      i += 1;
      while (i < n) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i += 1;
      }
      i += 1;
    } else if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      i = end === -1 ? n : end + 1;
    } else if (c === '$' && !/[\w$]/.test(sql[i - 1] ?? '')) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end === -1 ? n : end + tag[0].length;
      } else i += 1;
    } else if (c === '(' || c === ')') {
      depth = c === '(' ? depth + 1 : Math.max(0, depth - 1);
      i += 1;
    } else if (c === ';' && depth === 0) {
      statements.push(sql.slice(start, i + 1));
      start = i + 1;
      i += 1;
    } else i += 1;
  }
  statements.push(sql.slice(start));
  return statements.filter((s) => hasCode(s));
}

/** Whether a chunk holds anything but whitespace and comments. */
function hasCode(/** @type {string} */ chunk) {
  return (
    chunk
      .replace(/--[^\n]*/g, '')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .trim() !== ''
  );
}

/**
 * @typedef {object} TapTest
 * @property {number} number
 * @property {boolean} ok
 * @property {string} description
 * @property {string} [directive] `TODO …` or `SKIP …`
 * @property {string[]} diagnostics the `#` lines that follow it
 * @typedef {object} TapRun
 * @property {number | undefined} planned
 * @property {TapTest[]} tests
 * @property {string[]} diagnostics `#` lines before the first test
 * @property {{ message: string, code?: string, statement: string } | undefined} error the error that stopped the file
 * @property {boolean} passed no error, a plan, as many tests as planned, each ok (or TODO)
 */

/**
 * Parses TAP output lines.
 * @param {string[]} lines
 * @returns {Omit<TapRun, 'error' | 'passed'>}
 */
export function parseTap(lines) {
  /** @type {number | undefined} */
  let planned;
  /** @type {TapTest[]} */
  const tests = [];
  /** @type {string[]} */
  const diagnostics = [];
  for (const line of lines) {
    const plan = /^1\.\.(\d+)/.exec(line);
    const test = /^(not )?ok\b\s*(\d+)?\s*(?:-\s*)?([^#]*?)\s*(?:#\s*((?:TODO|SKIP)\b.*))?$/i.exec(line);
    if (plan) planned = Number(plan[1]);
    else if (test)
      tests.push({
        number: test[2] ? Number(test[2]) : tests.length + 1,
        ok: !test[1],
        description: (test[3] ?? '').trim(),
        ...(test[4] ? { directive: test[4] } : {}),
        diagnostics: [],
      });
    else if (line.startsWith('#')) (tests.at(-1)?.diagnostics ?? diagnostics).push(line);
  }
  return { planned, tests, diagnostics };
}

/**
 * Runs one pgTAP file on the given database as `postgres`.
 * @param {import('pg').ClientConfig} connection
 * @param {string} file
 * @returns {Promise<TapRun>}
 */
export async function runTapFile(connection, file) {
  const client = new pg.Client(connection);
  await client.connect();
  /** @type {string[]} */
  const lines = [];
  /** @type {TapRun['error']} */
  let error;
  try {
    for (const statement of splitStatements(readFileSync(file, 'utf8'))) {
      try {
        const results = /** @type {import('pg').QueryResult | import('pg').QueryResult[]} */ (
          await client.query({ text: statement, rowMode: 'array' })
        );
        for (const result of Array.isArray(results) ? results : [results])
          for (const row of result.rows ?? [])
            for (const value of /** @type {unknown[]} */ (row))
              if (typeof value === 'string') lines.push(...value.split('\n'));
      } catch (caught) {
        const e = /** @type {{ message?: string, code?: string }} */ (caught);
        error = { message: e.message ?? String(caught), code: e.code, statement: statement.trim().slice(0, 300) };
        break;
      }
    }
  } finally {
    await client.end();
  }
  const parsed = parseTap(lines);
  const passed =
    !error &&
    parsed.planned !== undefined &&
    parsed.tests.length === parsed.planned &&
    parsed.tests.every((t) => t.ok || /^TODO/i.test(t.directive ?? ''));
  return { ...parsed, error, passed };
}
