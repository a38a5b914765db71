// supabase/config.toml is the one definition of the project's auth settings; the stand-in reads
// them with a TOML parser (config/toml.mjs), never from a copy of its own.
import { describe, expect, it } from 'vitest';
import { readAuthProjectSettings } from '../config/auth.mjs';
import { parseToml } from '../config/toml.mjs';
import { readFunctionsConfig } from '../functions.mjs';

describe('config.toml settings', () => {
  it('reads the redirect allow-list, mail frequency, link lifetime and password length', () => {
    const toml = [
      '[auth]',
      'site_url = "https://site.test"',
      'additional_redirect_urls = [',
      '  "https://site.test/a/", # a comment inside the list',
      '  "http://localhost:4173/",',
      ']',
      'minimum_password_length = 8',
      '[auth.email]',
      'max_frequency = "90s"',
      'otp_expiry = 600',
    ].join('\n');
    expect(readAuthProjectSettings(parseToml(toml))).toEqual({
      siteUrl: 'https://site.test',
      additionalRedirectUrls: ['https://site.test/a/', 'http://localhost:4173/'],
      emailMaxFrequencySeconds: 90,
      otpExpirySeconds: 600,
      minimumPasswordLength: 8,
    });
  });

  it('refuses a value of the wrong kind rather than defaulting', () => {
    expect(() => readAuthProjectSettings(parseToml('[auth]\nadditional_redirect_urls = "x"'))).toThrow(
      /not a list of strings/,
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
