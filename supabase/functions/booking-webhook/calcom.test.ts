// Cal.com's documented example deliveries (fixtures/README.md says where each is from), read as
// the function reads them: one public.record_booking call's worth each.
import { describe, expect, it } from 'vitest';
import { parseCalcom } from './calcom.ts';
import { utf8 } from './signing.ts';
import { fixture } from './test-support.ts';

const now = new Date('2026-12-07T12:00:00Z');
const parse = (body: unknown) => parseCalcom(utf8(JSON.stringify(body)), now);

describe('Cal.com’s documented payloads', () => {
  it('BOOKING_CREATED: a booking by the booker (the first attendee), with its video link', () => {
    expect(parse(fixture('calcom-booking-created'))).toEqual({
      kind: 'booking',
      provider: 'calcom',
      trigger: 'BOOKING_CREATED',
      event: 'created',
      bookingId: 'unique-booking-id',
      previousBookingId: null,
      memberId: null,
      email: 'guest@example.com',
      name: 'Guest User',
      startsAt: '2024-01-01T10:00:00.000Z',
      endsAt: '2024-01-01T10:15:00.000Z',
      meetingUrl: 'https://app.example.com/video/unique-booking-id',
      occurredAt: '2024-01-01T00:00:00.000Z',
    });
  });

  it('BOOKING_RESCHEDULED: the new booking, naming the old one by rescheduleUid', () => {
    expect(parse(fixture('calcom-booking-rescheduled'))).toMatchObject({
      event: 'created',
      bookingId: 'new-booking-unique-id',
      previousBookingId: 'previous-booking-unique-id',
      startsAt: '2024-01-10T14:30:00.000Z',
      meetingUrl: 'https://app.example.com/video/new-booking-unique-id',
    });
  });

  it('BOOKING_CANCELLED: the booking cancelled; no metadata, no link ("integrations:…" is no URL)', () => {
    expect(parse(fixture('calcom-booking-cancelled'))).toMatchObject({
      event: 'cancelled',
      bookingId: 'unique-booking-identifier',
      previousBookingId: null,
      memberId: null,
      email: 'guest@example.com',
      startsAt: '2024-01-04T10:00:00.000Z',
      meetingUrl: null,
      occurredAt: '2024-01-01T15:00:00.000Z',
    });
  });

  it('the older docs’ BOOKING_CREATED: empty metadata and a place, so no member id and no link', () => {
    expect(parse(fixture('calcom-booking-created-2023'))).toMatchObject({
      bookingId: 'bFJeNb2uX8ANpT3JL5EfXw',
      memberId: null,
      email: 'john.doe@example.com',
      name: 'John Doe',
      meetingUrl: null,
    });
  });
});

describe('what the booking link adds, and what falls back', () => {
  it('metadata.memberId (from metadata[memberId]=… on the link) is the member id', () => {
    const body = fixture('calcom-booking-created');
    body.payload.metadata = { videoCallUrl: 'https://app.example.com/v/1', memberId: ' 0b6a…id ' };
    expect(parse(body)).toMatchObject({ memberId: '0b6a…id' });
  });

  it('without attendees, the booking form’s answers give the e-mail and name; videoCallData the link', () => {
    const body = fixture('calcom-booking-created');
    body.payload.attendees = [];
    body.payload.metadata = {};
    expect(parse(body)).toMatchObject({
      email: 'guest@example.com',
      name: 'Guest User',
      meetingUrl: 'https://video.example.com/meeting-room-id',
    });
  });

  it('a location that is an https link is the meeting link', () => {
    const body = fixture('calcom-booking-created-2023');
    body.payload.location = 'https://meet.example.com/abc';
    expect(parse(body)).toMatchObject({ meetingUrl: 'https://meet.example.com/abc' });
  });
});

describe('deliveries recorded as nothing', () => {
  it('other triggers, such as the webhook test’s PING, are ignored quietly', () => {
    expect(parse({ triggerEvent: 'PING', createdAt: '2024-01-01T00:00:00Z', payload: {} })).toEqual({
      kind: 'ignored',
      provider: 'calcom',
      trigger: 'PING',
      reason: 'trigger PING is not a booking change',
      unreadable: false,
    });
    expect(parse({ ...fixture('calcom-booking-created'), triggerEvent: 'MEETING_ENDED' })).toMatchObject({
      kind: 'ignored',
      unreadable: false,
    });
  });

  it('a booking change with no uid, or a body that is not JSON (a custom template), is unreadable', () => {
    const body = fixture('calcom-booking-created');
    delete body.payload.uid;
    expect(parse(body)).toMatchObject({ kind: 'ignored', reason: 'payload.uid is missing', unreadable: true });
    expect(parseCalcom(utf8('content=A new event has been scheduled'), now)).toMatchObject({
      kind: 'ignored',
      unreadable: true,
    });
  });
});
