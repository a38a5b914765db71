// @ts-check
// supabase/config.toml, read as the Supabase CLI reads it (a TOML parser, smol-toml), and the
// typed look-ups the stand-in's settings are made of. A key of the wrong kind is an error, never a
// silent default; a key that is absent takes the caller's default (the CLI's).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repo's supabase/config.toml. */
export const CONFIG_TOML = path.resolve(here, '..', '..', '..', 'supabase', 'config.toml');

/** @typedef {Record<string, unknown>} TomlTable */

/**
 * Parses config.toml text into its tables.
 * @param {string} text
 * @returns {TomlTable}
 */
export function parseToml(text) {
  return parse(text);
}

/** The repo's config.toml, parsed (empty when the file is missing). */
export function repoToml() {
  return parseToml(existsSync(CONFIG_TOML) ? readFileSync(CONFIG_TOML, 'utf8') : '');
}

/**
 * The table at a dotted path (`auth.email`), or an empty table when it is absent.
 * @param {TomlTable} toml
 * @param {string} dotted
 * @returns {TomlTable}
 */
export function tableAt(toml, dotted) {
  /** @type {unknown} */
  let at = toml;
  for (const part of dotted.split('.')) {
    at = at && typeof at === 'object' && !Array.isArray(at) ? /** @type {TomlTable} */ (at)[part] : undefined;
  }
  return at && typeof at === 'object' && !Array.isArray(at) ? /** @type {TomlTable} */ (at) : {};
}

/**
 * @template T
 * @param {TomlTable} table
 * @param {string} where the table's name, for the error
 * @param {string} key
 * @param {T} fallback
 * @param {(v: unknown) => v is T} is
 * @param {string} kind
 * @returns {T}
 */
function valueOf(table, where, key, fallback, is, kind) {
  const v = table[key];
  if (v === undefined) return fallback;
  if (!is(v)) throw new Error(`config.toml [${where}] ${key}: not ${kind}`);
  return v;
}

/** @type {(v: unknown) => v is boolean} */
const isBoolean = (v) => typeof v === 'boolean';
/** @type {(v: unknown) => v is number} */
const isWholeNumber = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** @type {(v: unknown) => v is string} */
const isString = (v) => typeof v === 'string';
/** @type {(v: unknown) => v is string[]} */
const isStrings = (v) => Array.isArray(v) && v.every(isString);

/**
 * Typed readers of one table's keys.
 * @param {TomlTable} toml
 * @param {string} dotted
 */
export function keysOf(toml, dotted) {
  const table = tableAt(toml, dotted);
  return {
    /** @type {(key: string, fallback: boolean) => boolean} */
    boolean: (key, fallback) => valueOf(table, dotted, key, fallback, isBoolean, 'a boolean'),
    /** @type {(key: string, fallback: number) => number} */
    wholeNumber: (key, fallback) => valueOf(table, dotted, key, fallback, isWholeNumber, 'a whole number'),
    /** @type {(key: string, fallback: string) => string} */
    string: (key, fallback) => valueOf(table, dotted, key, fallback, isString, 'a string'),
    /** @type {(key: string, fallback: readonly string[]) => readonly string[]} */
    strings: (key, fallback) => valueOf(table, dotted, key, fallback, isStrings, 'a list of strings'),
  };
}

/**
 * A Go duration of whole seconds as config.toml writes them ("60s"), in seconds.
 * @param {string} text
 * @param {string} what the key, for the error
 */
export function durationSeconds(text, what) {
  const m = /^([0-9]+)s$/.exec(text);
  if (!m) throw new Error(`config.toml ${what}: not a duration in seconds ("60s")`);
  return Number(m[1]);
}
