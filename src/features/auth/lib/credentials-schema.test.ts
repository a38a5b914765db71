import { describe, expect, it } from 'vitest';
import { checkCredentials } from './credentials-schema';

describe('checkCredentials', () => {
  it('accepts valid credentials and trims the email', () => {
    expect(checkCredentials({ email: '  writer@example.com ', password: 'secret1' })).toEqual({
      ok: true,
      credentials: { email: 'writer@example.com', password: 'secret1' },
    });
  });

  it.each([
    [{ email: 'not-an-email', password: 'secret1' }, 'Invalid email address'],
    [{ email: 'a@b', password: 'secret1' }, 'Invalid email address'],
    [{ email: `${'a'.repeat(250)}@example.com`, password: 'secret1' }, 'Email must be less than 255 characters'],
    [{ email: 'writer@example.com', password: '12345' }, 'Password must be at least 6 characters'],
    [{ email: 'writer@example.com', password: 'x'.repeat(101) }, 'Password must be less than 100 characters'],
  ])('rejects %o with %s', (input, message) => {
    expect(checkCredentials(input)).toEqual({ ok: false, message });
  });

  it('reports the email problem before the password problem', () => {
    expect(checkCredentials({ email: 'nope', password: '1' })).toEqual({ ok: false, message: 'Invalid email address' });
  });

  it('accepts the limits themselves: 6 and 100 character passwords', () => {
    expect(checkCredentials({ email: 'w@example.com', password: '123456' }).ok).toBe(true);
    expect(checkCredentials({ email: 'w@example.com', password: 'x'.repeat(100) }).ok).toBe(true);
  });
});
