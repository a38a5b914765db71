import { describe, expect, it } from 'vitest';
import { resourceCards } from '@/content/resources';
import { tiers } from '@/content/tiers';
import {
  cardView,
  compareNames,
  describeFile,
  downloadableFiles,
  fileDetails,
  fileType,
  formatFileSize,
  showsReadyForMore,
  titleFromName,
  type FilesState,
} from './resource-files';

const ready = (names: string[]): FilesState => ({
  status: 'ready',
  files: names.map((name) => ({
    name,
    title: name,
    type: 'PDF',
    size: null,
    url: `u/${name}`,
  })),
  prepare: async (name) => `u/${name}?signed`,
});

describe('downloadableFiles', () => {
  it('drops folders and placeholder objects and sorts by name', () => {
    expect(
      downloadableFiles([
        { name: 'b.pdf', id: '2' },
        { name: '.emptyFolderPlaceholder', id: '3' },
        { name: 'sub', id: null },
        { name: 'a.epub', id: '1' },
      ]).map((file) => file.name),
    ).toEqual(['a.epub', 'b.pdf']);
  });

  it('sorts names without regard to case, upper case first on a tie', () => {
    const names = ['b.pdf', 'Chapter-2.pdf', 'a.epub', 'chapter-10.pdf', 'Audio.mp3', 'audio.mp3'];
    expect([...names].sort(compareNames)).toEqual([
      'a.epub',
      'Audio.mp3',
      'audio.mp3',
      'b.pdf',
      'chapter-10.pdf',
      'Chapter-2.pdf',
    ]);
  });

  it('is empty for an empty folder', () => {
    expect(downloadableFiles([{ name: '.emptyFolderPlaceholder', id: 'x' }])).toEqual([]);
  });
});

describe('describeFile', () => {
  it('takes the type and size from the storage metadata and a title from the name', () => {
    expect(
      describeFile({
        name: 'session-1-called-to-write.mp3',
        id: '1',
        metadata: { size: 2_345_678, mimetype: 'audio/mpeg' },
      }),
    ).toEqual({
      name: 'session-1-called-to-write.mp3',
      title: 'Session 1 called to write',
      type: 'MP3 audio',
      size: 2_345_678,
    });
  });

  it('prefers a stored title when the listing carries one', () => {
    expect(
      describeFile({ name: 'yes-you-can.pdf', id: '1', user_metadata: { title: '  Yes, You Can! (PDF edition) ' } })
        .title,
    ).toBe('Yes, You Can! (PDF edition)');
    expect(describeFile({ name: 'yes-you-can.pdf', id: '1', user_metadata: { title: ' ' } }).title).toBe('Yes you can');
  });

  it('says nothing about a size storage did not give', () => {
    expect(describeFile({ name: 'a.pdf', id: '1', metadata: null }).size).toBeNull();
    expect(describeFile({ name: 'a.pdf', id: '1', metadata: { size: '12' } }).size).toBeNull();
  });
});

describe('file words', () => {
  it('titles a name without its extension, dashes or underscores', () => {
    expect(titleFromName('book-planning-worksheet.pdf')).toBe('Book planning worksheet');
    expect(titleFromName('chapter__outline--v2.pdf')).toBe('Chapter outline v2');
    expect(titleFromName('README')).toBe('README');
    expect(titleFromName('---.pdf')).toBe('---.pdf');
  });

  it('names the type from the content type, else the extension', () => {
    expect(fileType('a.pdf', 'application/pdf')).toBe('PDF');
    expect(fileType('a.epub', 'application/epub+zip')).toBe('EPUB eBook');
    expect(fileType('a.mobi', 'application/x-mobipocket-ebook')).toBe('MOBI eBook');
    expect(fileType('a.pdf', 'application/octet-stream')).toBe('PDF');
    expect(fileType('notes', null)).toBe('File');
  });

  it('formats sizes in decimal units', () => {
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(999)).toBe('999 bytes');
    expect(formatFileSize(1000)).toBe('1 KB');
    expect(formatFileSize(1500)).toBe('1.5 KB');
    expect(formatFileSize(123_456)).toBe('123 KB');
    expect(formatFileSize(999_600)).toBe('1 MB');
    expect(formatFileSize(2_345_678)).toBe('2.3 MB');
    expect(formatFileSize(5_000_000_000)).toBe('5 GB');
  });

  it('puts type and size together', () => {
    expect(fileDetails({ type: 'PDF', size: 1500 })).toBe('PDF, 1.5 KB');
    expect(fileDetails({ type: 'PDF', size: null })).toBe('PDF');
  });
});

describe('cardView', () => {
  it('locks every card without a tier, whatever the files', () => {
    for (const card of resourceCards) expect(cardView(null, card.tier, ready(['a.pdf']))).toBe('locked');
  });

  it('neither locks nor opens any card while the tier could not be loaded', () => {
    for (const card of resourceCards) expect(cardView(undefined, card.tier, ready(['a.pdf']))).toBe('unknown');
  });

  it('unlocks cumulatively by tier rank', () => {
    const unlockedCount = tiers.map(
      (tier) => resourceCards.filter((card) => cardView(tier, card.tier, ready(['a.pdf'])) !== 'locked').length,
    );
    // ebook: 1 card; foundation: +3; accelerated: +1; complete: all six.
    expect(unlockedCount).toEqual([1, 4, 5, 6]);
  });

  it('reports loading, error, files and coming soon for an unlocked card', () => {
    expect(cardView('ebook', 'ebook', undefined)).toBe('loading');
    expect(cardView('ebook', 'ebook', { status: 'loading' })).toBe('loading');
    expect(cardView('ebook', 'ebook', { status: 'error', message: 'x', retry: () => {} })).toBe('error');
    expect(cardView('ebook', 'ebook', ready(['a.pdf']))).toBe('files');
    expect(cardView('ebook', 'ebook', ready([]))).toBe('coming-soon');
  });
});

describe('showsReadyForMore', () => {
  it('shows below complete and without a tier, not at complete', () => {
    expect(showsReadyForMore(null)).toBe(true);
    expect(showsReadyForMore('ebook')).toBe(true);
    expect(showsReadyForMore('foundation')).toBe(true);
    expect(showsReadyForMore('accelerated')).toBe(true);
    expect(showsReadyForMore('complete')).toBe(false);
  });

  it('does not sell an upgrade while the tier is unknown', () => {
    expect(showsReadyForMore(undefined)).toBe(false);
  });
});
