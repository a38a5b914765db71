/** Every in-app href lives here, so a route can move without a hunt for string literals. */
export const paths = {
  home: '/',
  auth: '/auth',
  /** Where password-recovery and invitation links land. */
  setPassword: '/auth/set-password',
  /** Where every auth e-mail's link lands: it verifies only when its button is pressed. */
  confirm: '/auth/confirm',
  resources: '/resources',
  bundles: '/bundles',
  upgrade: '/upgrade',
  privacy: '/privacy',
  adminUpload: '/admin-upload',
  /** The staff's home page: the dashboard. */
  staff: '/staff',
  staffCatalog: '/staff/catalog',
  staffMembers: '/staff/members',
  /** Every upcoming coaching session, and the bookings that matched no member. */
  staffSessions: '/staff/sessions',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/**
 * The public pages that are documents: prerendered by the build, shipped without React and
 * never hydrated (src/document/main.ts is their only script). The app's router never renders
 * them either: a link or a navigation to one from the app loads it as a document.
 * See docs/decisions/098-public-pages-are-documents.md.
 */
export const documentPages: readonly string[] = [paths.home, paths.bundles, paths.upgrade, paths.privacy];

/**
 * The pages whose visits are counted: the documents and /auth (src/lib/count.ts sends the counts,
 * supabase/functions/count refuses any other page). See
 * docs/decisions/099-counting-visits-without-cookies.md.
 */
export const countedPages: readonly string[] = [...documentPages, paths.auth];

const probeOrigin = 'http://same-site.invalid';

function hasUnsafeCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || char === '\\') return true;
  }
  return false;
}

/**
 * Only same-site paths may be followed after sign-in: a `next` value must start with a
 * single `/` (so `//evil.example` and `https://…` are refused), contain no backslash or
 * control/space character (browsers drop tabs and newlines, so `/\t/evil` reads as
 * `//evil`), and still resolve to this site when parsed as a URL.
 */
export function safeNextPath(next: string | null | undefined, fallback: string = paths.resources): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || hasUnsafeCharacter(next)) return fallback;
  try {
    if (new URL(next, probeOrigin).origin !== probeOrigin) return fallback;
  } catch {
    return fallback;
  }
  return next;
}
