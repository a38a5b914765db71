import { describe, expect, it } from 'vitest';
import { avatarPath, checkAvatarFile, MAX_AVATAR_BYTES, versionedUrl } from './avatar-file';

describe('checkAvatarFile', () => {
  it('accepts an image up to exactly 2MB', () => {
    expect(checkAvatarFile({ size: MAX_AVATAR_BYTES, type: 'image/png' })).toBeNull();
  });

  it('refuses anything over 2*1024*1024 bytes', () => {
    expect(checkAvatarFile({ size: MAX_AVATAR_BYTES + 1, type: 'image/png' })).toEqual({
      title: 'File too large',
      description: 'Please upload an image smaller than 2MB',
    });
  });

  it('refuses a type that does not start with image/', () => {
    expect(checkAvatarFile({ size: 10, type: 'application/pdf' })).toEqual({
      title: 'Invalid file type',
      description: 'Please upload an image file',
    });
    expect(checkAvatarFile({ size: 10, type: '' })?.title).toBe('Invalid file type');
  });

  it('checks the size first', () => {
    expect(checkAvatarFile({ size: MAX_AVATAR_BYTES + 1, type: 'text/plain' })?.title).toBe('File too large');
  });
});

describe('avatarPath', () => {
  it('uses the user id folder and the file extension', () => {
    expect(avatarPath('u1', { name: 'Me.JPG', type: 'image/jpeg' })).toBe('u1/avatar.jpg');
    expect(avatarPath('u1', { name: 'photo.final.webp', type: 'image/webp' })).toBe('u1/avatar.webp');
  });

  it('falls back to the MIME subtype, then png', () => {
    expect(avatarPath('u1', { name: 'camera-roll', type: 'image/gif' })).toBe('u1/avatar.gif');
    expect(avatarPath('u1', { name: 'blob', type: '' })).toBe('u1/avatar.png');
  });
});

describe('versionedUrl', () => {
  it('adds a cache-busting version', () => {
    expect(versionedUrl('https://x.test/a.png', 5)).toBe('https://x.test/a.png?v=5');
    expect(versionedUrl('https://x.test/a.png?t=1', 5)).toBe('https://x.test/a.png?t=1&v=5');
  });
});
