// supabase/config.toml against the Supabase CLI's config loader rules (v2.104.0,
// apps/cli-go/pkg/config): every key one of its fields, every value of that field's type
// (fixtures/cli-config-schema.ts), the SMTP block's required fields when it is on
// (auth.go/config.go `email.validate`), and the production override ([remotes.production],
// commented in the repo) a valid remote whose keys override the base ones (config.go
// `loadFromFile` / `mergeRemoteConfig`).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../mail-templates.mjs';
import { CLI_CONFIG_SCHEMA, PROJECT_REF, type Kind, type Schema } from './fixtures/cli-config-schema';

const CONFIG_PATH = path.join(REPO_ROOT, 'supabase', 'config.toml');
const configText = readFileSync(CONFIG_PATH, 'utf8');

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

function isKind(entry: Schema[string]): entry is Kind {
  return typeof entry === 'string' || 'enum' in entry;
}

/** Why `value` is not of `kind`, or null. */
function typeError(kind: Kind, value: unknown): string | null {
  const isUint = (v: unknown, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
  switch (kind) {
    case 'bool':
      return typeof value === 'boolean' ? null : 'not a boolean';
    case 'string':
    case 'secret':
      return typeof value === 'string' ? null : 'not a string';
    case 'email':
      return typeof value === 'string' && /^[^@\s]+@[^@\s]+$/.test(value) ? null : 'not an e-mail address';
    case 'uint':
      return isUint(value, Number.MAX_SAFE_INTEGER) ? null : 'not a whole number ≥ 0';
    case 'uint16':
      return isUint(value, 65535) ? null : 'not a whole number from 0 to 65535';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : 'not a list of strings';
    case 'duration':
      return typeof value === 'string' && /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(value) ? null : 'not a duration';
    case 'size':
      return (typeof value === 'string' && /^\d+(\.\d+)?\s*(B|KB|KiB|MB|MiB|GB|GiB)?$/i.test(value)) ||
        isUint(value, Number.MAX_SAFE_INTEGER)
        ? null
        : 'not a size';
    default:
      return kind.enum.includes(value as string) ? null : `not one of ${JSON.stringify(kind.enum)}`;
  }
}

/** Every key of `table` the CLI would refuse, and every value of the wrong type, as "a.b: why". */
function validate(table: Table, schema: Schema, at = ''): string[] {
  const errors: string[] = [];
  for (const [key, value] of Object.entries(table)) {
    const where = at ? `${at}.${key}` : key;
    const entry = schema[key];
    if (entry === undefined) {
      errors.push(`${where}: unknown key`);
      continue;
    }
    if (isKind(entry)) {
      const why = typeError(entry, value);
      if (why) errors.push(`${where}: ${why}`);
    } else if (!isTable(value)) {
      errors.push(`${where}: not a table`);
    } else if ('mapOf' in entry) {
      const inner = entry.mapOf as Schema | Kind;
      for (const [name, item] of Object.entries(value)) {
        if (isKind(inner as Schema[string])) {
          const why = typeError(inner as Kind, item);
          if (why) errors.push(`${where}.${name}: ${why}`);
        } else if (!isTable(item)) errors.push(`${where}.${name}: not a table`);
        else errors.push(...validate(item, inner as Schema, `${where}.${name}`));
      }
    } else {
      errors.push(...validate(value, entry as Schema, where));
    }
  }
  return errors;
}

/** The CLI's email.validate: with SMTP on, these fields must be set. */
function smtpErrors(smtp: Table | undefined): string[] {
  // [auth.email.smtp] without `enabled` is on (config.go `load`).
  if (!smtp || smtp.enabled === false) return [];
  return ['host', 'port', 'user', 'pass', 'admin_email']
    .filter((key) => !smtp[key])
    .map((key) => `Missing required field in config: auth.email.smtp.${key}`);
}

/** The CLI's Validate for remotes (config.go): each project_id must be a project ref. */
function remoteErrors(config: Table): string[] {
  const remotes = isTable(config.remotes) ? config.remotes : {};
  return Object.entries(remotes)
    .filter(([, remote]) => !(isTable(remote) && PROJECT_REF.test(String(remote.project_id))))
    .map(([name]) => `Invalid config for remotes.${name}.project_id. Must be like: abcdefghijklmnopqrst`);
}

/** Viper's merge of a remote over the base config: each key the remote sets replaces the base's. */
function mergeRemote(base: Table, remote: Table): Table {
  const out: Table = { ...base };
  for (const [key, value] of Object.entries(remote)) {
    out[key] = isTable(value) && isTable(base[key]) ? mergeRemote(base[key], value) : value;
  }
  return out;
}

/** config.toml with the commented production override switched on, for a made-up project ref. */
function withProductionOverride(text: string, ref: string): string {
  const start = text.indexOf('# [remotes.production]');
  expect(start).toBeGreaterThan(0);
  const block = text
    .slice(start)
    .split('\n')
    .map((line) => line.replace(/^# ?/, ''))
    .join('\n');
  return text.slice(0, start) + block.replace(/project_id = "[^"]*"/, `project_id = "${ref}"`);
}

const get = (table: Table, dotted: string): unknown =>
  dotted.split('.').reduce<unknown>((t, key) => (isTable(t) ? t[key] : undefined), table);

describe('supabase/config.toml, read by the Supabase CLI (v2.104.0) rules', () => {
  const config = parse(configText) as Table;

  it('has only keys the CLI defines, each with a value of its type', () => {
    expect(validate(config, CLI_CONFIG_SCHEMA)).toEqual([]);
  });

  it('fails a key the CLI does not define, a value of the wrong type and a remote without a real ref', () => {
    const broken = parse(
      configText
        .replace('[auth.email.smtp]\n', '[auth.email.smtp]\nhots = "smtp.example.com"\n')
        .replace('port = 587', 'port = "587"'),
    ) as Table;
    expect(validate(broken, CLI_CONFIG_SCHEMA).sort()).toEqual([
      'auth.email.smtp.hots: unknown key',
      'auth.email.smtp.port: not a whole number from 0 to 65535',
    ]);
    const withTypo = parse(`${configText}\n[auth.rate_limits]\nemail_sent = 30\n`) as Table;
    expect(validate(withTypo, CLI_CONFIG_SCHEMA)).toEqual(['auth.rate_limits: unknown key']);
    expect(remoteErrors(parse(withProductionOverride(configText, 'your-project-ref')) as Table)).toEqual([
      'Invalid config for remotes.production.project_id. Must be like: abcdefghijklmnopqrst',
    ]);
  });

  it('keeps SMTP off locally, with its password only as env(SMTP_PASS), and every rate limit set', () => {
    const smtp = get(config, 'auth.email.smtp') as Table;
    expect(smtp.enabled).toBe(false);
    expect(smtp.pass).toBe('env(SMTP_PASS)');
    expect(Object.keys(smtp).sort()).toEqual(
      ['admin_email', 'enabled', 'host', 'pass', 'port', 'sender_name', 'user'].sort(),
    );
    expect(Object.keys(get(config, 'auth.rate_limit') as Table).sort()).toEqual(
      Object.keys((CLI_CONFIG_SCHEMA.auth as Schema).rate_limit as Schema).sort(),
    );
  });

  it('names a template file that exists for every branded mail (content_path from the repo root, as the CLI resolves it)', () => {
    const templates = get(config, 'auth.email.template') as Record<string, Table>;
    expect(Object.keys(templates).sort()).toEqual(['confirmation', 'email_change', 'invite', 'recovery']);
    for (const [kind, table] of Object.entries(templates)) {
      expect(typeof table.subject, kind).toBe('string');
      expect(existsSync(path.join(REPO_ROOT, table.content_path as string)), kind).toBe(true);
    }
  });

  it('has a production override that, uncommented with a project ref, turns SMTP on with every required field and the site URL', () => {
    const ref = 'abcdefghijklmnopqrst';
    const full = parse(withProductionOverride(configText, ref)) as Table;
    expect(validate(full, CLI_CONFIG_SCHEMA)).toEqual([]);
    expect(remoteErrors(full)).toEqual([]);
    expect(remoteErrors(config)).toEqual([]);
    const remotes = full.remotes as Record<string, Table>;
    expect(Object.keys(remotes)).toEqual(['production']);
    const remote = remotes.production as Table;
    expect(remote.project_id).toMatch(PROJECT_REF);
    const production = mergeRemote(config, remote);
    expect(get(production, 'auth.email.smtp.enabled')).toBe(true);
    expect(smtpErrors(get(production, 'auth.email.smtp') as Table)).toEqual([]);
    expect(get(production, 'auth.site_url')).toMatch(/^https:\/\//);
    expect(get(production, 'auth.email.enable_confirmations')).toBe(true);
    // The same checks fail a block that lost a required field.
    const { host: _host, ...noHost } = get(production, 'auth.email.smtp') as Table;
    expect(smtpErrors(noHost)).toEqual(['Missing required field in config: auth.email.smtp.host']);
  });
});
