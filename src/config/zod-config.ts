import { z } from 'zod';

/**
 * Zod's fast path compiles object parsers with `new Function`, after probing whether eval is
 * allowed. The production Content-Security-Policy forbids eval (scripts/security-headers.mjs),
 * so the probe only fails and reports a violation. Parse without it. Imported first by main.tsx.
 */
z.config({ jitless: true });
