// @ts-check
// GoTrue's per-IP request limits. internal/api/apilimiter/apilimiter.go makes one tollbooth
// limiter per endpoint group, each a token bucket that holds 30 requests (SetBurst(30)) and
// refills at the configured rate per 5 minutes: Token (password sign-in and refresh,
// token_refresh), Verify (token_verifications), and Signups, Recover, Resend, Otp, MagicLink and
// User (newLimiterPer5mOver1h, all at RATE_LIMIT_OTP, config.toml's sign_in_sign_ups), each its
// own bucket. internal/api/middleware.go performRateLimiting keys them on the client's address
// and answers 429 over_request_rate_limit "Request rate limit reached"; internal/api/api.go
// (and token.go for /token) says which route spends which.
import { AUTH_SETTINGS } from '../config/auth.mjs';
import { authError } from './errors.mjs';

/** tollbooth's burst for every per-IP limiter here. */
export const BURST = 30;

/** @typedef {'token' | 'verify' | 'signups' | 'recover' | 'resend' | 'user'} LimitName */

/** Buckets idle this long are forgotten (the limiters' DefaultExpirationTTL, an hour). */
const IDLE_MS = 60 * 60 * 1000;

/**
 * @param {{ rates?: typeof AUTH_SETTINGS.rateLimits, now?: () => number }} [options]
 */
export function createRequestLimits({ rates = AUTH_SETTINGS.rateLimits, now = () => Date.now() } = {}) {
  const otp = rates.signInSignUps / 300;
  /** @type {Record<LimitName, number>} requests per second */
  const refill = {
    token: rates.tokenRefresh / 300,
    verify: rates.tokenVerifications / 300,
    signups: otp,
    recover: otp,
    resend: otp,
    user: otp,
  };
  /** @type {Map<string, { tokens: number, at: number }>} */
  const buckets = new Map();

  /** @param {number} t */
  function forgetIdle(t) {
    if (buckets.size < 10_000) return;
    for (const [id, b] of buckets) if (t - b.at > IDLE_MS) buckets.delete(id);
  }

  return {
    /**
     * Spends one request of `name` for `address`, or throws GoTrue's 429.
     * @param {LimitName} name
     * @param {string} address
     */
    take(name, address) {
      const t = now();
      forgetIdle(t);
      const id = `${name} ${address}`;
      const bucket = buckets.get(id) ?? { tokens: BURST, at: t };
      bucket.tokens = Math.min(BURST, bucket.tokens + ((t - bucket.at) / 1000) * refill[name]);
      bucket.at = t;
      buckets.set(id, bucket);
      if (bucket.tokens < 1) throw authError(429, 'over_request_rate_limit', 'Request rate limit reached');
      bucket.tokens -= 1;
    },
  };
}

/**
 * The client's address as the hosted auth server keys its limits: the connection's own address.
 * Hosted GoTrue keys on Sb-Forwarded-For (internal/sbff/sbff.go: its first value, parsed as an IP;
 * internal/api/middleware.go performRateLimiting prefers it over the RATE_LIMIT_HEADER), which
 * Supabase's gateway sets from the address the request really came from, so a client cannot
 * choose its bucket by sending X-Forwarded-For or Sb-Forwarded-For itself. The stand-in is its
 * own gateway: it takes the socket's remote address and ignores both headers. An IPv4 address
 * mapped into IPv6 (a dual-stack listener) is written as IPv4, as Go's net.IP String() does.
 * @param {import('node:http').IncomingMessage} req
 */
export function clientAddress(req) {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}
