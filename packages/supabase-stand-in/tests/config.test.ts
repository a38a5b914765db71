// supabase/config.toml is the one definition of the project's auth settings; the stand-in reads
// them with a TOML parser (config/toml.mjs), never from a copy of its own.
import { describe, expect, it } from 'vitest';
import { readAuthProjectSettings } from '../config/auth.mjs';
import { parseToml } from '../config/toml.mjs';
import { readFunctionsConfig } from '../functions/service.mjs';

describe('config.toml settings', () => {
  it('reads the mail frequency, link lifetime, password length and per-IP limits', () => {
    const toml = [
      '[auth]',
      'additional_redirect_urls = [',
      '  "https://site.test/a/", # a comment inside a list',
      ']',
      'minimum_password_length = 8',
      '[auth.email]',
      'max_frequency = "90s"',
      'otp_expiry = 600',
      '[auth.rate_limit]',
      'token_verifications = 45',
    ].join('\n');
    expect(readAuthProjectSettings(parseToml(toml))).toEqual({
      emailMaxFrequencySeconds: 90,
      otpExpirySeconds: 600,
      minimumPasswordLength: 8,
      // The CLI's defaults where config.toml says nothing.
      rateLimits: { tokenRefresh: 150, signInSignUps: 30, tokenVerifications: 45 },
    });
  });

  it('refuses a value of the wrong kind rather than defaulting', () => {
    expect(() => readAuthProjectSettings(parseToml('[auth]\nminimum_password_length = "6"'))).toThrow(
      /not a whole number/,
    );
    expect(() => readAuthProjectSettings(parseToml('[auth.email]\nmax_frequency = "1m"'))).toThrow(/in seconds/);
    expect(() => parseToml('[auth]\nsite_url = ')).toThrow();
  });

  it('reads verify_jwt of quoted and bare function names, true when absent', () => {
    const toml = '[functions.a]\nverify_jwt = false\n[functions."b-c"]\n[functions.d]\nverify_jwt = true # on';
    expect([...readFunctionsConfig(toml)]).toEqual([
      ['a', { verifyJwt: false }],
      ['b-c', { verifyJwt: true }],
      ['d', { verifyJwt: true }],
    ]);
  });
});
