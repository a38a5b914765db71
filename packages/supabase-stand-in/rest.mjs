// @ts-check
// The PostgREST subset now lives in rest/ (one module per concern, docs/local-stand-in.md); this
// module keeps the old import path for the code and tests that use it.
export { createRestContext as createRestService } from './rest/context.mjs';
export { restError } from './rest/errors.mjs';
export { MAX_LOGIC_DEPTH, quoteIdent } from './rest/query.mjs';
export { SchemaCache } from './rest/schema-cache.mjs';
