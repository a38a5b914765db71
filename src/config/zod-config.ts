import { z } from 'zod';

/**
 * Zod's fast path compiles object parsers with `new Function`, after probing whether eval is
 * allowed. The production Content-Security-Policy forbids eval (scripts/build/security-headers.mjs),
 * so the probe only fails and reports a violation. Parse without it. Every module that uses
 * zod imports `z` from here (not from main.tsx, which would put zod in the landing page's
 * first chunk).
 */
z.config({ jitless: true });

export { z };
