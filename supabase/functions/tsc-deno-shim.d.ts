// For the repo's `tsc` only (Deno never loads this file; `deno check`, run by
// supabase/functions/deno.test.ts, checks the entries against Deno's real
// types): the two Deno calls the entries make, and the npm: specifier mapped to node_modules.
declare namespace Deno {
  const env: { toObject(): Record<string, string> };
  const pid: number;
  function serve(handler: (request: Request) => Response | Promise<Response>): unknown;
}

declare module 'npm:@supabase/supabase-js@2.109.0' {
  export * from '@supabase/supabase-js';
}

declare module 'npm:pdf-lib@1.17.1' {
  export * from 'pdf-lib';
}

declare module 'npm:fflate@0.8.3' {
  export * from 'fflate';
}
