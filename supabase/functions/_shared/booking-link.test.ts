import { describe, expect, it } from 'vitest';
import { bookingLink, bookingProvider } from './booking-link';

const member = {
  id: '00000000-0000-4000-8000-000000000003',
  email: 'alex+coach@example.com',
  name: 'Alex Accelerated',
};

describe('bookingLink', () => {
  it('prefills a Cal.com page and carries the id in its metadata', () => {
    const link = new URL(bookingLink('https://cal.com/owner/coaching-90', member));
    expect(link.origin + link.pathname).toBe('https://cal.com/owner/coaching-90');
    expect(link.searchParams.get('name')).toBe('Alex Accelerated');
    expect(link.searchParams.get('email')).toBe('alex+coach@example.com');
    expect(link.searchParams.get('metadata[memberId]')).toBe(member.id);
  });

  it('prefills a Calendly page and carries the id as utm_content', () => {
    const link = new URL(bookingLink('https://calendly.com/owner/90min?hide_gdpr_banner=1', member));
    expect(link.searchParams.get('hide_gdpr_banner')).toBe('1');
    expect(link.searchParams.get('utm_content')).toBe(member.id);
    expect(link.searchParams.get('email')).toBe('alex+coach@example.com');
  });

  it('leaves out a name the member has not set', () => {
    const link = new URL(bookingLink('https://cal.com/owner/x', { ...member, name: null }));
    expect(link.searchParams.has('name')).toBe(false);
  });

  it('tells the providers apart by host', () => {
    expect(bookingProvider('https://calendly.com/owner')).toBe('calendly');
    expect(bookingProvider('https://cal.com/owner')).toBe('calcom');
    expect(bookingProvider('https://book.example.org/owner')).toBe('calcom');
  });
});
