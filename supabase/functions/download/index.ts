// The Deno entry of the download function: reads the environment and serves the plain handler
// (handler.ts). The gateway checks the caller's JWT (verify_jwt stays on); the handler asks the
// auth server whether that session still exists before anything is read.
// Deployed with `supabase functions deploy download` (see README).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { createDownloadHandler, readDownloadConfig } from './handler.ts';

const config = readDownloadConfig(Deno.env.toObject());

Deno.serve(
  createDownloadHandler({
    ...config,
    createClient: (key) =>
      createClient(config.supabaseUrl, key, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      }),
    log: (entry) => console.log(JSON.stringify(entry)),
  }),
);
