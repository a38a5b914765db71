import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './rate-limit';

describe('retryAfterSeconds', () => {
  it("reads GoTrue's per-address wait", () => {
    expect(retryAfterSeconds('For security purposes, you can only request this after 42 seconds.')).toBe(42);
    expect(retryAfterSeconds('For security purposes, you can only request this after 1 second.')).toBe(1);
  });

  it('is null when the message names no time', () => {
    expect(retryAfterSeconds('email rate limit exceeded')).toBeNull();
    expect(retryAfterSeconds('')).toBeNull();
  });
});
