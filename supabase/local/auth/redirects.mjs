// @ts-check
// Where an auth link may send the browser (GoTrue's internal/utilities/request.go,
// GetReferrer, and internal/api/verify.go's redirect checks). The allow-list is
// supabase/config.toml's [auth] site_url and additional_redirect_urls, its one definition, as
// hosted Supabase takes it from `supabase config push`.
import { AUTH_SETTINGS } from '../config/auth.mjs';

/** config.toml [auth] site_url: where auth links lead when no allowed redirect is asked for. */
export const SITE_URL = AUTH_SETTINGS.siteUrl;

/**
 * config.toml [auth] additional_redirect_urls. Each entry allows itself and any path under it,
 * on the same scheme, host and port.
 */
export const ADDITIONAL_REDIRECT_URLS = AUTH_SETTINGS.additionalRedirectUrls;

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
