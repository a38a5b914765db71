// @ts-check
// The project's e-mail budget, as GoTrue keeps it (github.com/supabase/auth):
// internal/api/mail.go, sendEmail: every auth e-mail (sign-up confirmation, recovery, e-mail
// change, invitation, ...) asks the limiter once before it goes out; with `email_sent = 0` every
// one is refused, otherwise the limiter applies only while autoconfirm is off (e-mail
// confirmations on, the posture config.toml and production run). Past the budget the request
// fails with 429 `over_email_send_rate_limit`, "email rate limit exceeded", and nothing is sent.
// internal/ratelimit/interval.go, IntervalLimiter: one counter for the whole project, reset when
// a full interval (an hour: conf.Rate's default for a plain number, RATE_LIMIT_EMAIL_SENT) has
// passed since the window started (the auth server's start), not a sliding window.
// internal/conf/configuration.go: RateLimitEmailSent; config.toml `[auth.rate_limit] email_sent`.

/** GoTrue's window for a plain `email_sent` number (conf.Rate, defaultOverTime). */
export const EMAIL_BUDGET_WINDOW_MS = 60 * 60 * 1000;

/** GoTrue's EmailRateLimitExceeded message, sent with 429 over_email_send_rate_limit. */
export const EMAIL_BUDGET_MESSAGE = 'email rate limit exceeded';

/**
 * @typedef {{
 *   spend: () => boolean,
 *   remaining: () => number,
 *   resetsAt: () => number,
 *   reset: () => void,
 * }} EmailBudget
 *   spend: asks for one e-mail; false when the budget refuses it (GoTrue: Limiter.Allow()).
 *   remaining: e-mails left in the current window (Infinity when the limiter does not apply).
 *   resetsAt: epoch ms when the current window ends.
 *   reset: starts a new window now, as a restarted auth server would (tests and the benchmark).
 */

/**
 * @param {{ perHour: number, autoconfirm: boolean, now?: () => number, windowMs?: number }} options
 *   perHour: `[auth.rate_limit] email_sent`; autoconfirm: e-mail confirmations off;
 *   now / windowMs: the clock and the window (tests).
 * @returns {EmailBudget}
 */
export function createEmailBudget({ perHour, autoconfirm, now = Date.now, windowMs = EMAIL_BUDGET_WINDOW_MS }) {
  if (!Number.isInteger(perHour) || perHour < 0) throw new Error(`email_sent must be a whole number, not ${perHour}`);
  let windowStart = now();
  let count = 0;

  /** IntervalLimiter.allowAt: a new window once a whole interval has passed. */
  function roll() {
    const passed = Math.floor((now() - windowStart) / windowMs);
    if (passed > 0) {
      windowStart += passed * windowMs;
      count = 0;
    }
  }

  return {
    spend() {
      if (perHour === 0) return false;
      if (autoconfirm) return true;
      roll();
      if (count < perHour) {
        count += 1;
        return true;
      }
      return false;
    },
    remaining() {
      if (perHour === 0) return 0;
      if (autoconfirm) return Number.POSITIVE_INFINITY;
      roll();
      return perHour - count;
    },
    resetsAt() {
      roll();
      return windowStart + windowMs;
    },
    reset() {
      windowStart = now();
      count = 0;
    },
  };
}
