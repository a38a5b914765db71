import { describe, expect, it } from 'vitest';
import { recordings, splitLive, type LiveSession } from './live';

const base: LiveSession = {
  id: 's1',
  benefit: 'circle',
  label: 'Group coaching circle',
  title: 'Circle one',
  starts_at: '2027-03-01T18:00:00Z',
  minutes: 120,
  description: null,
  cancelled: false,
  recording_path: null,
  joinable: false,
};

describe('splitLive', () => {
  it('keeps a session under way among those to come, and leaves cancelled ones out', () => {
    const now = new Date('2027-03-01T19:59:00Z');
    const sessions = [
      base,
      { ...base, id: 's2', starts_at: '2027-02-01T18:00:00Z' },
      { ...base, id: 's3', cancelled: true },
    ];
    const { upcoming, past } = splitLive(sessions, now);
    expect(upcoming.map((s) => s.id)).toEqual(['s1']);
    expect(past.map((s) => s.id)).toEqual(['s2']);
  });
});

describe('recordings', () => {
  it('plays a held session’s audio or video, titled as the session, and skips anything else', () => {
    const items = recordings([
      { ...base, recording_path: 'accelerated/masterclass/circle-one.mp4' },
      { ...base, id: 's2', title: 'Call', recording_path: 'complete/interviews/call.m4a' },
      { ...base, id: 's3', recording_path: 'accelerated/masterclass/notes.pdf' },
      { ...base, id: 's4' },
    ]);
    expect(items).toEqual([
      {
        path: 'accelerated/masterclass/circle-one.mp4',
        name: 'circle-one.mp4',
        title: 'Circle one',
        kind: 'video',
        captionsPath: null,
      },
      { path: 'complete/interviews/call.m4a', name: 'call.m4a', title: 'Call', kind: 'audio', captionsPath: null },
    ]);
  });
});
