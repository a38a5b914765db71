// @ts-check
// Where an auth link may send the browser (GoTrue's internal/utilities/request.go,
// GetReferrer, and internal/api/verify.go's redirect checks). The site URL and the allow-list
// are scripts/dev/auth-urls.mjs's, the one module the site, the e2e suite and the stand-in read
// (it says what supabase/config.toml [auth] says, which its own test checks).
import { ADDITIONAL_REDIRECT_URLS, SITE_URL } from '../../../scripts/dev/auth-urls.mjs';

export { ADDITIONAL_REDIRECT_URLS, SITE_URL };

/**
 * @param {unknown} text
 * @returns {URL | null}
 */
function parseHttpUrl(text) {
  if (typeof text !== 'string' || text === '') return null;
  let u;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return null;
  return u;
}

/**
 * `candidate` when it is the site URL or one of the allowed redirect URLs (or a path under one
 * of them), else the site URL, as GoTrue falls back. Anything that is not a plain http(s) URL
 * (javascript:, protocol-relative, credentials) is refused.
 * @param {unknown} candidate
 * @param {string} siteUrl
 * @param {readonly string[]} [allowList]
 * @returns {string}
 */
export function safeRedirect(candidate, siteUrl, allowList = ADDITIONAL_REDIRECT_URLS) {
  const target = parseHttpUrl(candidate);
  if (!target) return siteUrl;
  for (const entry of [siteUrl, ...allowList]) {
    const base = parseHttpUrl(entry);
    if (!base || base.origin !== target.origin) continue;
    const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
    if (target.pathname === base.pathname || target.pathname.startsWith(prefix)) {
      target.hash = '';
      return target.href;
    }
  }
  return siteUrl;
}
