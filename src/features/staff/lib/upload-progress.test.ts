import { describe, expect, it } from 'vitest';
import { secondsLeft, timeLeftText } from './upload-progress';

describe('secondsLeft', () => {
  it('cannot tell from one reading, or while nothing moves', () => {
    expect(secondsLeft([], 100)).toBeNull();
    expect(secondsLeft([{ at: 0, sent: 10 }], 100)).toBeNull();
    expect(
      secondsLeft(
        [
          { at: 0, sent: 10 },
          { at: 5000, sent: 10 },
        ],
        100,
      ),
    ).toBeNull();
  });

  it('follows the speed of the last 20 seconds', () => {
    const samples = [
      { at: 0, sent: 0 },
      // slow at first: 1 byte a second
      { at: 30_000, sent: 30 },
      // then 10 bytes a second
      { at: 40_000, sent: 130 },
      { at: 50_000, sent: 230 },
    ];
    expect(secondsLeft(samples, 1230)).toBe(100);
  });
});

describe('timeLeftText', () => {
  it('says it in words', () => {
    expect(timeLeftText(null)).toBe('');
    expect(timeLeftText(4)).toBe('Less than 10 seconds left');
    expect(timeLeftText(44)).toBe('About 40 seconds left');
    expect(timeLeftText(130)).toBe('About 2 minutes left');
    expect(timeLeftText(3700)).toBe('About 1 hour 2 minutes left');
    expect(timeLeftText(7200)).toBe('About 2 hours left');
  });
});
