import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { site } from '@/content/site';
import type { Coaching } from '../lib/coaching';
import { CoachingView } from './coaching-view';

const userId = '00000000-0000-4000-8000-000000000003';
const now = new Date('2026-12-07T12:00:00Z');

function ready(data: Partial<Coaching>) {
  const coaching: Coaching = {
    sessions: 2,
    used: 0,
    left: 2,
    minutes: 90,
    booking_url: 'https://cal.com/owner/coaching',
    name: 'Alex Accelerated',
    email: 'accelerated@example.com',
    bookings: [],
    ...data,
  };
  return { status: 'ready' as const, data: coaching, refreshFailed: false, retrying: false, retry: () => {} };
}

describe('CoachingView', () => {
  it('says what is left and books on the owner’s page, prefilled and carrying the member’s id', () => {
    render(<CoachingView userId={userId} coaching={ready({})} now={now} />);
    expect(screen.getByRole('region', { name: 'Your coaching' })).toHaveTextContent('2 of 2 sessions left');
    const link = screen.getByRole('link', { name: /^Book a session/ });
    const href = new URL(link.getAttribute('href')!);
    expect(href.searchParams.get('metadata[memberId]')).toBe(userId);
    expect(href.searchParams.get('email')).toBe('accelerated@example.com');
    expect(href.searchParams.get('name')).toBe('Alex Accelerated');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('gives way to the help address when every session is booked', () => {
    render(<CoachingView userId={userId} coaching={ready({ used: 2, left: 0 })} now={now} />);
    expect(screen.queryByRole('link', { name: /Book a session/ })).not.toBeInTheDocument();
    expect(screen.getByText(/All your sessions are booked/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: site.contactEmail })).toHaveAttribute(
      'href',
      `mailto:${site.contactEmail}`,
    );
  });

  it('lists sessions to come with their link, and held ones with the note for the member', () => {
    render(
      <CoachingView
        userId={userId}
        now={now}
        coaching={ready({
          used: 2,
          left: 0,
          bookings: [
            {
              id: 'a',
              starts_at: '2026-12-09T14:00:00Z',
              ends_at: '2026-12-09T15:30:00Z',
              meeting_url: 'https://cal.com/video/a',
              status: 'booked',
              member_note: null,
            },
            {
              id: 'b',
              starts_at: '2026-12-01T14:00:00Z',
              ends_at: '2026-12-01T15:30:00Z',
              meeting_url: 'https://cal.com/video/b',
              status: 'booked',
              member_note: 'Outline chapter 2 by Friday.',
            },
          ],
        })}
      />,
    );
    expect(screen.getByRole('link', { name: 'Join the session' })).toHaveAttribute('href', 'https://cal.com/video/a');
    expect(screen.getByText('Outline chapter 2 by Friday.')).toBeInTheDocument();
  });

  it('shows nothing to a member whose bundle includes no coaching', () => {
    const { container } = render(
      <CoachingView userId={userId} coaching={ready({ sessions: 0, left: 0, booking_url: null })} now={now} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
