/**
 * Seconds to wait from GoTrue's per-address limit message ("For security purposes, you can
 * only request this after 42 seconds."), or null for a limit that names no time (the
 * project-wide "email rate limit exceeded").
 */
export function retryAfterSeconds(message: string): number | null {
  const match = /after (\d+) seconds?/.exec(message);
  return match ? Number(match[1]) : null;
}
