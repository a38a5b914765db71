import { z } from '@/config/zod-config';
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

const envSchema = z.object({
  VITE_SUPABASE_URL: z
    .string({ error: 'VITE_SUPABASE_URL is missing.' })
    .trim()
    .min(1, { error: 'VITE_SUPABASE_URL is missing.', abort: true })
    .url({ error: 'VITE_SUPABASE_URL must be a full URL such as https://your-project.supabase.co.', abort: true })
    .refine((value) => /^https?:\/\//.test(value), 'VITE_SUPABASE_URL must start with http:// or https://.'),
  VITE_SUPABASE_ANON_KEY: z
    .string({ error: 'VITE_SUPABASE_ANON_KEY is missing.' })
    .trim()
    .min(1, { error: 'VITE_SUPABASE_ANON_KEY is missing.', abort: true })
    .refine((value) => isJwt(value) || value.startsWith('sb_'), {
      error: 'VITE_SUPABASE_ANON_KEY must be the project’s anon (public) key: a JWT or an sb_publishable_ key.',
      abort: true,
    })
    // Only the anon JWT or a publishable key; any other sb_ key or JWT role is a secret one.
    .refine((value) => (isJwt(value) ? jwtRole(value) === 'anon' : value.startsWith('sb_publishable_')), {
      error:
        'VITE_SUPABASE_ANON_KEY is a secret (service-role) key. Use the anon (public) key: a secret key in a VITE_ variable ships to every visitor.',
    }),
});

export type Env = z.infer<typeof envSchema>;

export { ConfigError };

export function parseEnv(source: Record<string, unknown>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issue.message));
  return result.data;
}
