/**
 * Thrown when VITE_SUPABASE_URL / VITE_SUPABASE_ANON_KEY are missing or malformed. Kept apart
 * from env.ts so the landing page can recognise it without pulling zod into its first load.
 */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The site is not configured: ${problems.join(' ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
