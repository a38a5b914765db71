type SupabaseModule = typeof import('./supabase');

let loaded: SupabaseModule | undefined;

/**
 * The supabase-js client's module, imported on first use: public pages paint without it.
 * Every lazy use goes through here, so the module is imported from one place and kept.
 */
export async function loadSupabase(): Promise<SupabaseModule> {
  loaded ??= await import('./supabase');
  return loaded;
}

/**
 * The client's module if it has loaded, else undefined: for a call that must go out in the
 * turn that asks for it (`loadedSupabase() ?? (await loadSupabase())`). A dynamic import()
 * of a module already loaded still resolves a task later, behind whatever the page queued
 * meanwhile (a form's busy render, its paint). See
 * docs/decisions/093-sign-in-sent-in-the-submit-turn.md.
 */
export function loadedSupabase(): SupabaseModule | undefined {
  return loaded;
}
