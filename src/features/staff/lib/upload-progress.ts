/** One reading of an upload's progress: when, and how many bytes had been sent. */
export type ProgressSample = { at: number; sent: number };

/** How far back the speed is measured: long enough to smooth chunks, short enough to follow a change. */
export const SPEED_WINDOW_MS = 20_000;

/**
 * Seconds left at the speed of the last SPEED_WINDOW_MS, or null while that cannot be told (too
 * few samples, no bytes moving).
 */
export function secondsLeft(samples: readonly ProgressSample[], total: number): number | null {
  const last = samples.at(-1);
  if (!last) return null;
  const first = samples.find((sample) => last.at - sample.at <= SPEED_WINDOW_MS) ?? last;
  const elapsed = (last.at - first.at) / 1000;
  const moved = last.sent - first.sent;
  if (elapsed < 1 || moved <= 0) return null;
  return Math.max(0, (total - last.sent) / (moved / elapsed));
}

/** 130 -> "About 3 minutes left"; 40 -> "About 40 seconds left". */
export function timeLeftText(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 10) return 'Less than 10 seconds left';
  if (seconds < 60) return `About ${Math.round(seconds / 10) * 10} seconds left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `About ${minutes} minute${minutes === 1 ? '' : 's'} left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `About ${hours} hour${hours === 1 ? '' : 's'}${rest ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''} left`;
}
