import { describe, expect, it } from 'vitest';
import { callerAddress } from './caller-address.ts';

const req = (headers: Record<string, string>) => new Request('https://x.test/', { headers });

describe('callerAddress', () => {
  it('is cf-connecting-ip, whatever X-Forwarded-For, X-Real-IP or True-Client-IP say', () => {
    expect(
      callerAddress(
        req({
          'cf-connecting-ip': '198.51.100.7',
          'x-forwarded-for': '203.0.113.1',
          'x-real-ip': '203.0.113.2',
          'true-client-ip': '203.0.113.3',
        }),
      ),
    ).toBe('198.51.100.7');
  });

  it('never falls back to X-Forwarded-For', () => {
    expect(callerAddress(req({ 'x-forwarded-for': '203.0.113.1' }))).toBeNull();
    expect(callerAddress(req({}))).toBeNull();
  });

  it('writes IPv4 mapped into IPv6 as IPv4, and keeps IPv6', () => {
    expect(callerAddress(req({ 'cf-connecting-ip': '::ffff:203.0.113.2' }))).toBe('203.0.113.2');
    expect(callerAddress(req({ 'cf-connecting-ip': ' 2001:DB8::1 ' }))).toBe('2001:db8::1');
  });

  it('stores nothing for a value that is not an IP address', () => {
    for (const bad of ['203.0.113.256', 'evil.example.com', '203.0.113.1, 10.0.0.1', '1.2.3', '::g', 'x'.repeat(60)]) {
      expect(callerAddress(req({ 'cf-connecting-ip': bad })), bad).toBeNull();
    }
  });
});
