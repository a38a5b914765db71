// The owner's booking page, opened from the member's page prefilled with their name and e-mail
// and carrying their id, which the provider sends back in its webhook: Cal.com as
// `metadata[memberId]` (the payload's `metadata.memberId`), Calendly as `utm_content` (the
// invitee's `tracking.utm_content`). The booking webhook reads the id back from the same names.

export type BookingProvider = 'calcom' | 'calendly';

/** Where each provider carries the member's id: the link's parameter, and the field it comes back in. */
export const MEMBER_ID_FIELD = {
  calcom: { param: 'metadata[memberId]', payloadKey: 'memberId' },
  calendly: { param: 'utm_content', payloadKey: 'utm_content' },
} as const satisfies Record<BookingProvider, { param: string; payloadKey: string }>;

/** Calendly's pages live on calendly.com; anything else is taken as Cal.com (cal.com or self-hosted). */
export function bookingProvider(url: string): BookingProvider {
  const host = new URL(url).hostname.toLowerCase();
  return host === 'calendly.com' || host.endsWith('.calendly.com') ? 'calendly' : 'calcom';
}

/** The booking page for one member: prefilled, and carrying their id. */
export function bookingLink(url: string, member: { id: string; email: string | null; name: string | null }): string {
  const link = new URL(url);
  if (member.name?.trim()) link.searchParams.set('name', member.name.trim());
  if (member.email) link.searchParams.set('email', member.email);
  link.searchParams.set(MEMBER_ID_FIELD[bookingProvider(url)].param, member.id);
  return link.toString();
}
