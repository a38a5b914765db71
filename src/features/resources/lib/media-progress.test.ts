import { describe, expect, it } from 'vitest';
import { cardProgress, formatTime, mediaItems, resumePosition, spokenTime, type Progress } from './media-progress';
import { describeFile } from './resource-files';

const folder = 'foundation/scripture-audio';
const file = (name: string) => describeFile({ name, id: name });
const sessions = ['session-1.mp3', 'session-2.mp3', 'session-3.mp3'].map(file);

function place(name: string, position: number, updated: string, finished = false): Progress {
  return {
    file_name: `${folder}/${name}`,
    position_seconds: position,
    duration_seconds: 100,
    finished_at: finished ? updated : null,
    updated_at: updated,
  };
}

describe('mediaItems', () => {
  it('keeps the audio and video of a folder, in name order, with a video’s captions', () => {
    const items = mediaItems('accelerated/masterclass', [
      file('templates.pdf'),
      file('welcome.vtt'),
      file('welcome.mp4'),
      file('lesson-2.mp4'),
      file('talk.m4a'),
    ]);
    expect(items.map((item) => [item.path, item.kind, item.captionsPath])).toEqual([
      ['accelerated/masterclass/lesson-2.mp4', 'video', null],
      ['accelerated/masterclass/talk.m4a', 'audio', null],
      ['accelerated/masterclass/welcome.mp4', 'video', 'accelerated/masterclass/welcome.vtt'],
    ]);
  });
});

describe('cardProgress', () => {
  const items = mediaItems(folder, sessions);

  it('is nothing for a card without media', () => {
    expect(cardProgress([], [])).toBeNull();
  });

  it('starts with the first item when nothing is begun', () => {
    expect(cardProgress(items, [])).toEqual({
      finished: 0,
      total: 3,
      verb: 'listened',
      next: { item: items[0], started: false },
    });
  });

  it('counts finished items and continues the latest unfinished one', () => {
    const progress = [
      place('session-1.mp3', 95, '2026-12-01T10:00:00Z', true),
      place('session-2.mp3', 10, '2026-12-02T10:00:00Z'),
      place('session-3.mp3', 40, '2026-12-03T10:00:00Z'),
    ];
    expect(cardProgress(items, progress)).toMatchObject({ finished: 1, next: { item: items[2], started: true } });
  });

  it('offers nothing more once everything is finished', () => {
    const progress = sessions.map((session) => place(session.name, 95, '2026-12-01T10:00:00Z', true));
    expect(cardProgress(items, progress)).toMatchObject({ finished: 3, total: 3, next: null });
  });

  it('says watched for video and finished for a mix', () => {
    expect(cardProgress(mediaItems(folder, [file('a.mp4')]), [])?.verb).toBe('watched');
    expect(cardProgress(mediaItems(folder, [file('a.mp4'), file('b.mp3')]), [])?.verb).toBe('finished');
  });
});

describe('resumePosition', () => {
  it('is the saved place, or the start once finished', () => {
    expect(resumePosition(undefined)).toBe(0);
    expect(resumePosition(place('session-1.mp3', 60, '2026-12-01T10:00:00Z'))).toBe(60);
    expect(resumePosition(place('session-1.mp3', 95, '2026-12-01T10:00:00Z', true))).toBe(0);
  });
});

describe('times', () => {
  it('reads as a clock and as words', () => {
    expect(formatTime(65)).toBe('1:05');
    expect(formatTime(3723)).toBe('1:02:03');
    expect(formatTime(Number.NaN)).toBe('0:00');
    expect(spokenTime(65)).toBe('1 minute 5 seconds');
    expect(spokenTime(0)).toBe('0 seconds');
    expect(spokenTime(3601)).toBe('1 hour 1 second');
  });
});
