import { describe, expect, it } from 'vitest';
import { AVATAR_ACCEPT, avatarPath, checkAvatarFile, MAX_AVATAR_BYTES, versionedUrl } from './avatar-file';

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
    expect(checkAvatarFile({ size: MAX_AVATAR_BYTES + 1, type: 'image/heic' })?.title).toBe('File too large');
  });

  it('accepts exactly the types the avatars bucket takes', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp', 'image/gif']) {
      expect(checkAvatarFile({ size: 10, type })).toBeNull();
    }
  });

  it('refuses other images in plain words, not with the storage error', () => {
    for (const type of ['image/heic', 'image/svg+xml', 'image/avif', 'image/bmp', 'image/tiff', 'image/']) {
      expect(checkAvatarFile({ size: 10, type })).toEqual({
        title: 'Invalid file type',
        description: 'Please upload a PNG, JPEG, WebP or GIF image',
      });
    }
  });
});

describe('AVATAR_ACCEPT', () => {
  it('offers only the types the bucket takes', () => {
    expect(AVATAR_ACCEPT.split(',').sort()).toEqual(['image/gif', 'image/jpeg', 'image/png', 'image/webp']);
  });
});

describe('avatarPath', () => {
  it('takes the extension from the type, which the storage policy allows', () => {
    expect(avatarPath('u1', { type: 'image/png' })).toBe('u1/avatar.png');
    expect(avatarPath('u1', { type: 'image/jpeg' })).toBe('u1/avatar.jpg');
    expect(avatarPath('u1', { type: 'image/webp' })).toBe('u1/avatar.webp');
    expect(avatarPath('u1', { type: 'image/gif' })).toBe('u1/avatar.gif');
  });

  it('ignores the file name: a .jfif JPEG or a misnamed file still gets an allowed name', () => {
    const jfif = new File(['x'], 'Me.jfif', { type: 'image/jpeg' });
    expect(avatarPath('u1', jfif)).toBe('u1/avatar.jpg');
    const misnamed = new File(['x'], 'photo.final.JPG', { type: 'image/png' });
    expect(avatarPath('u1', misnamed)).toBe('u1/avatar.png');
  });

  it('refuses to name a type the bucket does not take', () => {
    expect(() => avatarPath('u1', { type: 'image/heic' })).toThrow('Please upload a PNG, JPEG, WebP or GIF image');
  });
});

describe('versionedUrl', () => {
  it('adds a cache-busting version', () => {
    expect(versionedUrl('https://x.test/a.png', 5)).toBe('https://x.test/a.png?v=5');
    expect(versionedUrl('https://x.test/a.png?t=1', 5)).toBe('https://x.test/a.png?t=1&v=5');
  });
});
