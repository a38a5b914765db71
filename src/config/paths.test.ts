import { describe, expect, it } from 'vitest';
import { paths, safeNextPath } from './paths';

describe('safeNextPath', () => {
  it('follows same-site paths', () => {
    expect(safeNextPath('/admin-upload')).toBe('/admin-upload');
    expect(safeNextPath('/resources?tab=audio#top')).toBe('/resources?tab=audio#top');
  });

  it('refuses other sites and odd forms, falling back to /resources', () => {
    for (const next of [
      '//evil.example',
      'https://evil.example/',
      'evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/ /evil.example',
      '/\u0000x',
      '',
      null,
      undefined,
    ]) {
      expect(safeNextPath(next)).toBe(paths.resources);
    }
  });

  it('uses the given fallback', () => {
    expect(safeNextPath('//x', paths.home)).toBe('/');
  });
});
