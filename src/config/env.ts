import { ConfigError } from './config-error';

/**
 * The only configuration the browser gets: the project URL and its public anon key.
 * Validated once, so a missing or malformed value gives a page that says which and how to
 * fix it instead of a blank screen or an opaque network error.
 */
function isJwt(value: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}

/** The `role` claim of a JWT (not verified: this only guards against pasting the wrong key). */
function jwtRole(token: string): unknown {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    return (JSON.parse(json) as { role?: unknown }).role;
  } catch {
    return undefined;
  }
}

/**
 * Each variable's check: its trimmed value, or the one problem with it. Plain code, not a
 * zod schema: every member page reads this before anything else, and zod (tens of kB) would
 * load with it; forms that check what a visitor types still use zod.
 */
type Check = { ok: true; value: string } | { ok: false; problem: string };

function present(name: string, raw: unknown): Check {
  const value = typeof raw === 'string' ? raw.trim() : '';
  return value === '' ? { ok: false, problem: `${name} is missing.` } : { ok: true, value };
}

/** `URL.canParse`, which Safari has only since 17. */
function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function checkUrl(raw: unknown): Check {
  const check = present('VITE_SUPABASE_URL', raw);
  if (!check.ok) return check;
  if (!isUrl(check.value)) {
    return { ok: false, problem: 'VITE_SUPABASE_URL must be a full URL such as https://your-project.supabase.co.' };
  }
  if (!/^https?:\/\//.test(check.value)) {
    return { ok: false, problem: 'VITE_SUPABASE_URL must start with http:// or https://.' };
  }
  return check;
}

function checkAnonKey(raw: unknown): Check {
  const check = present('VITE_SUPABASE_ANON_KEY', raw);
  if (!check.ok) return check;
  const key = check.value;
  if (!isJwt(key) && !key.startsWith('sb_')) {
    return {
      ok: false,
      problem: 'VITE_SUPABASE_ANON_KEY must be the project’s anon (public) key: a JWT or an sb_publishable_ key.',
    };
  }
  // Only the anon JWT or a publishable key; any other sb_ key or JWT role is a secret one.
  if (isJwt(key) ? jwtRole(key) !== 'anon' : !key.startsWith('sb_publishable_')) {
    return {
      ok: false,
      problem:
        'VITE_SUPABASE_ANON_KEY is a secret (service-role) key. Use the anon (public) key: a secret key in a VITE_ variable ships to every visitor.',
    };
  }
  return check;
}

export type Env = { VITE_SUPABASE_URL: string; VITE_SUPABASE_ANON_KEY: string };

export { ConfigError };

export function parseEnv(source: Record<string, unknown>): Env {
  const url = checkUrl(source.VITE_SUPABASE_URL);
  const key = checkAnonKey(source.VITE_SUPABASE_ANON_KEY);
  if (!url.ok || !key.ok) {
    throw new ConfigError([url, key].flatMap((check) => (check.ok ? [] : [check.problem])));
  }
  return { VITE_SUPABASE_URL: url.value, VITE_SUPABASE_ANON_KEY: key.value };
}
