/** Every in-app href lives here, so a route can move without a hunt for string literals. */
export const paths = {
  home: '/',
  auth: '/auth',
  resources: '/resources',
  bundles: '/bundles',
  upgrade: '/upgrade',
  adminUpload: '/admin-upload',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/**
 * Only same-site paths may be followed after sign-in: a `next` value must start with a
 * single `/` (so `//evil.example` and `https://…` are refused) and contain no backslash,
 * which some browsers treat as `/`.
 */
export function safeNextPath(next: string | null | undefined, fallback: string = paths.resources): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return fallback;
  return next;
}
