// Calendly's documented example deliveries (fixtures/README.md says where each is from), read as
// the function reads them, and the reschedule pair its guide describes.
import { describe, expect, it } from 'vitest';
import { parseCalendly } from './calendly.ts';
import { utf8 } from './signing.ts';
import { calendlyReschedule, fixture } from './test-support.ts';

const now = new Date('2026-12-07T12:00:00Z');
const parse = (body: unknown) => parseCalendly(utf8(JSON.stringify(body)), now);
const INVITEE = 'https://api.calendly.com/scheduled_events/AAAAAAAAAAAAAAAA/invitees/AAAAAAAAAAAAAAAA';

describe('Calendly’s documented payloads', () => {
  it('invitee.created: a booking whose id is the invitee URI', () => {
    expect(parse(fixture('calendly-invitee-created'))).toEqual({
      kind: 'booking',
      provider: 'calendly',
      trigger: 'invitee.created',
      event: 'created',
      bookingId: INVITEE,
      previousBookingId: null,
      memberId: null,
      email: 'test@example.com',
      name: 'John Doe',
      startsAt: '2019-08-24T14:15:22.123Z',
      endsAt: '2019-08-24T14:15:22.123Z',
      meetingUrl: null,
      occurredAt: '2020-11-23T17:51:19.000Z',
    });
  });

  it('invitee.canceled (rescheduled: false): the booking cancelled', () => {
    expect(parse(fixture('calendly-invitee-canceled'))).toMatchObject({
      event: 'cancelled',
      bookingId: INVITEE,
      previousBookingId: null,
      occurredAt: '2020-11-23T17:54:22.000Z',
    });
  });
});

describe('what the booking link adds, and a reschedule', () => {
  it('tracking.utm_content (from utm_content=… on the link) is the member id; a join_url the link', () => {
    const body = fixture('calendly-invitee-created');
    body.payload.tracking = { ...(body.payload.tracking as object), utm_content: 'member-uuid' };
    body.payload.scheduled_event = {
      ...(body.payload.scheduled_event as object),
      location: { type: 'zoom', status: 'pushed', join_url: 'https://zoom.example/j/1' },
    };
    expect(parse(body)).toMatchObject({ memberId: 'member-uuid', meetingUrl: 'https://zoom.example/j/1' });
  });

  it('first and last name fields make the name when there is no full name', () => {
    const body = fixture('calendly-invitee-created');
    Object.assign(body.payload, { name: '', first_name: 'John', last_name: 'Doe' });
    expect(parse(body)).toMatchObject({ name: 'John Doe' });
  });

  it('canceled with rescheduled: true marks the old invitee rescheduled; created names it as old_invitee', () => {
    const { canceled, created } = calendlyReschedule(`${INVITEE}-old`, `${INVITEE}-new`, { memberId: 'm-1' });
    expect(parse(canceled)).toMatchObject({ event: 'rescheduled', bookingId: `${INVITEE}-old`, memberId: 'm-1' });
    expect(parse(created)).toMatchObject({
      event: 'created',
      bookingId: `${INVITEE}-new`,
      previousBookingId: `${INVITEE}-old`,
      memberId: 'm-1',
    });
  });
});

describe('deliveries recorded as nothing', () => {
  it('other events are ignored quietly; an invitee without its URI is unreadable', () => {
    expect(parse({ ...fixture('calendly-invitee-created'), event: 'routing_form_submission.created' })).toMatchObject({
      kind: 'ignored',
      unreadable: false,
    });
    const body = fixture('calendly-invitee-created');
    delete body.payload.uri;
    expect(parse(body)).toMatchObject({ kind: 'ignored', reason: 'payload.uri is missing', unreadable: true });
  });
});
