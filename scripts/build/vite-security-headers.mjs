// @ts-check
// Vite plugin: writes the static hosts' header files into the build, and makes `vite preview`
// send exactly the headers in dist/_headers and fall back as dist/_redirects says (so the
// end-to-end suite runs under the shipped policy and routing). The dev server is left alone: Vite's dev client needs inline scripts and its own
// websocket, and a development page is never served to visitors.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { headersFor, securityHeaders, toHeadersFile, toRedirectsFile, toVercelJson } from './security-headers.mjs';

/**
 * Rules read back from a `_headers` file (the subset `toHeadersFile` writes).
 * @param {string} text
 * @returns {{ path: string, headers: Record<string, string> }[]}
 */
export function parseHeadersFile(text) {
  /** @type {{ path: string, headers: Record<string, string> }[]} */
  const rules = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: {} });
      continue;
    }
    const rule = rules.at(-1);
    const colon = line.indexOf(':');
    if (!rule || colon < 0) throw new Error(`_headers: a header line outside a path rule: ${line}`);
    rule.headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return rules;
}

/**
 * The file a static host would serve for `pathname` from `dir`, if one exists: the file
 * itself, `<path>.html` (clean URLs: /bundles is bundles.html) or `<path>/index.html`.
 * @param {string} dir
 * @param {string} pathname
 */
export function staticFileFor(dir, pathname) {
  const candidates = pathname.endsWith('/')
    ? [`${pathname}index.html`]
    : [pathname, `${pathname}.html`, `${pathname}/index.html`];
  return candidates.find((candidate) => {
    const file = path.join(dir, candidate);
    return file.startsWith(dir) && existsSync(file) && statSync(file).isFile();
  });
}

/**
 * The target of the `_redirects` rewrite (status 200) that matches `pathname`, if any.
 * @param {string} text
 * @param {string} pathname
 */
export function rewriteFor(text, pathname) {
  for (const line of text.split(/\r?\n/)) {
    const [from, to, status] = line.trim().split(/\s+/);
    if (!from || !to || status !== '200' || from.startsWith('#')) continue;
    if (from.endsWith('*') ? pathname.startsWith(from.slice(0, -1)) : pathname === from) return to;
  }
  return undefined;
}

/**
 * Whether the first `_redirects` rule matching `pathname` answers 404 (Netlify's "not found"
 * rule), as the host does when no file exists there.
 * @param {string} text
 * @param {string} pathname
 */
export function notFoundFor(text, pathname) {
  for (const line of text.split(/\r?\n/)) {
    const [from, to, status] = line.trim().split(/\s+/);
    if (!from || !to || from.startsWith('#')) continue;
    if (from.endsWith('*') ? pathname.startsWith(from.slice(0, -1)) : pathname === from) return status === '404';
  }
  return false;
}

/**
 * @param {{ scriptHashes?: string[] }} [options] hashes of the pages' inline scripts, for the policy
 * @returns {import('vite').Plugin}
 */
export function securityHeadersPlugin({ scriptHashes = [] } = {}) {
  /** @type {import('vite').ResolvedConfig} */
  let config;
  return {
    name: 'yyc-security-headers',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle() {
      const supabaseUrl = String(config.env.VITE_SUPABASE_URL ?? '').trim();
      if (!supabaseUrl) {
        this.error('VITE_SUPABASE_URL must be set at build time: the Content-Security-Policy names its origin.');
      }
      const rules = securityHeaders({ supabaseUrl, scriptHashes });
      this.emitFile({ type: 'asset', fileName: '_headers', source: toHeadersFile(rules) });
      this.emitFile({ type: 'asset', fileName: '_redirects', source: toRedirectsFile() });
      this.emitFile({ type: 'asset', fileName: 'vercel.json', source: toVercelJson(rules) });
    },
    configurePreviewServer(server) {
      const file = path.resolve(config.root, config.build.outDir, '_headers');
      if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` before the preview.`);
      const rules = parseHeadersFile(readFileSync(file, 'utf8'));
      const outDir = path.resolve(config.root, config.build.outDir);
      const redirects = readFileSync(path.join(outDir, '_redirects'), 'utf8');
      server.middlewares.use((req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://preview.invalid');
        for (const [name, value] of Object.entries(headersFor(rules, url.pathname))) res.setHeader(name, value);
        // Vite's own fallback would answer every unknown path with index.html (the
        // prerendered landing page); the hosts answer it with the shell _redirects names.
        if (!staticFileFor(outDir, url.pathname)) {
          if (notFoundFor(redirects, url.pathname)) {
            res.statusCode = 404;
            res.end('Not Found');
            return;
          }
          const target = rewriteFor(redirects, url.pathname);
          if (target) req.url = target + url.search;
        }
        next();
      });
    },
  };
}
