/**
 * When a member's downloads look like sharing, staff see them flagged on /staff/members
 * (public.staff_download_flags). Nothing is blocked: staff judge. Counted over the last 24 hours.
 */
export const downloadLimits = {
  /** More downloads than this in 24 hours. */
  perDay: 30,
  /** Downloads from more addresses than this in 24 hours. */
  addresses: 5,
} as const;
