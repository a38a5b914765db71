// @ts-check
// Where the local site is served and which addresses auth links may lead back to, for all the
// code that needs them: vite.config.ts (the ports it serves on), playwright.config.ts, the
// local stand-in's auth (GoTrue's SITE_URL and URI_ALLOW_LIST) and the tests. Plain JavaScript
// with JSDoc, so `node` runs it in the stand-in and the scripts, and TypeScript checks it.
//
// supabase/config.toml [auth] says the same to `supabase start` and `supabase config push`: it
// stays the source of truth for a Supabase project (hosted, set your production URLs there and
// in the dashboard), and auth-urls.test.ts checks this module against it.

/** The host the dev server, the preview and the stand-in listen on. */
export const LOCAL_HOST = '127.0.0.1';

/** `npm run dev` (vite) serves the site here. */
export const DEV_PORT = 5173;

/** `vite preview` serves the built site here; so does the e2e suite unless E2E_SITE_PORT moves it. */
export const PREVIEW_PORT = 4173;

/** config.toml [auth] site_url: where auth links lead when no allowed redirect is asked for. */
export const SITE_URL = `http://${LOCAL_HOST}:${DEV_PORT}`;

/**
 * config.toml [auth] additional_redirect_urls: the dev server and the preview, under both
 * spellings of the local host. Each entry allows itself and any path under it, on the same
 * scheme, host and port.
 * @type {readonly string[]}
 */
export const ADDITIONAL_REDIRECT_URLS = Object.freeze(
  [DEV_PORT, PREVIEW_PORT].flatMap((port) => [`http://${LOCAL_HOST}:${port}/`, `http://localhost:${port}/`]),
);
