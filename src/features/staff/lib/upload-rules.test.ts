import { describe, expect, it } from 'vitest';
import { findResourceCard, resourceCards } from '@/content/resources';
import {
  acceptAttribute,
  checkUploadFile,
  MAX_FILE_NAME_LENGTH,
  resourceContentType,
  resourceObjectPath,
  storageErrorMessage,
  storageObjectUrl,
  supportedFormatsText,
} from './upload-rules';

const ebook = findResourceCard('ebook')!;
const audio = findResourceCard('scripture-audio')!;

describe('supported formats', () => {
  it("reads as the spec's line for the book cards", () => {
    expect(supportedFormatsText(ebook)).toBe('Supported formats: PDF, EPUB, MOBI');
    expect(acceptAttribute(ebook)).toBe('.pdf,.epub,.mobi');
  });

  it('includes MP3 for the audio card', () => {
    expect(supportedFormatsText(audio)).toContain('MP3');
    expect(acceptAttribute(audio)).toContain('.mp3');
  });

  it('every card accepts at least PDF', () => {
    for (const card of resourceCards) expect(card.accept).toContain('.pdf');
  });
});

describe('checkUploadFile', () => {
  it('requires a file', () => {
    expect(checkUploadFile(ebook, null)).toBe('You must select a file to upload.');
  });

  it('accepts the card formats, case-insensitively', () => {
    expect(checkUploadFile(ebook, { name: 'Book.EPUB' })).toBeNull();
    expect(checkUploadFile(audio, { name: 'session-1.mp3' })).toBeNull();
  });

  it('refuses other formats', () => {
    expect(checkUploadFile(ebook, { name: 'song.mp3' })).toBe('This resource takes PDF, EPUB, MOBI files only.');
  });
});

describe('checkUploadFile: file names storage and the database take', () => {
  const charactersMessage = 'File names may use letters, digits, spaces, dots, hyphens and underscores only.';

  it('accepts plain names with letters, digits, spaces, dots, hyphens and underscores', () => {
    expect(checkUploadFile(ebook, { name: 'Book Planning_Worksheet-v2.final.pdf' })).toBeNull();
    expect(checkUploadFile(ebook, { name: 'A.EPUB' })).toBeNull();
    expect(checkUploadFile(audio, { name: 'session-1-called-to-write.mp3' })).toBeNull();
  });

  it.each([
    ['café.pdf'],
    ['naïve-writer.pdf'],
    ['chapter#1.pdf'],
    ['100%.pdf'],
    ['notes[draft].pdf'],
    ['{draft}.pdf'],
    ['a&b.pdf'],
    ['why?.pdf'],
    ['tab\there.pdf'],
    ['back\\slash.pdf'],
    ['emoji-📘.pdf'],
  ])('refuses %s with a plain message', (name) => {
    expect(checkUploadFile(ebook, { name })).toBe(charactersMessage);
  });

  it('refuses a name starting with a dot', () => {
    expect(checkUploadFile(ebook, { name: '.hidden.pdf' })).toBe('File names may not start with a dot.');
    expect(checkUploadFile(ebook, { name: '.pdf' })).toBe('File names may not start with a dot.');
  });

  it('takes up to 200 characters and refuses more', () => {
    const name = (length: number) => `${'a'.repeat(length - 4)}.pdf`;
    expect(checkUploadFile(ebook, { name: name(MAX_FILE_NAME_LENGTH) })).toBeNull();
    expect(checkUploadFile(ebook, { name: name(MAX_FILE_NAME_LENGTH + 1) })).toBe(
      'File name is too long (200 characters at most).',
    );
  });

  it('checks the format first', () => {
    expect(checkUploadFile(ebook, { name: '.café#.docx' })).toBe('This resource takes PDF, EPUB, MOBI files only.');
  });

  it('is never looser than the database rule (resource_path_tier)', () => {
    // The file-name part of public.resource_path_tier, transcribed from the migration.
    const databaseTakes = (name: string) =>
      // eslint-disable-next-line no-control-regex
      /^[^./\\\u0000-\u001f\u007f][^/\\\u0000-\u001f\u007f]*\.(pdf|epub|mobi|mp3)$/i.test(name) &&
      [...name].length <= 200;
    const candidates = [
      'a.pdf',
      'A b_c-d.e.MOBI',
      '.x.pdf',
      ' lead.pdf',
      'x'.repeat(196) + '.pdf',
      'x'.repeat(197) + '.pdf',
      'é'.repeat(50) + '.pdf',
      'a\u0001.pdf',
      'a/b.pdf',
      'a\\b.pdf',
      'ok.mp3',
    ];
    for (const name of candidates) {
      const card = name.toLowerCase().endsWith('.mp3') ? audio : ebook;
      if (checkUploadFile(card, { name }) === null) expect(databaseTakes(name), name).toBe(true);
    }
  });
});

describe('paths and URLs', () => {
  it('puts the file in the card folder', () => {
    expect(resourceObjectPath(ebook, { name: 'yes-you-can.pdf' })).toBe('ebook/ebook/yes-you-can.pdf');
    expect(resourceObjectPath(audio, { name: 'a b.mp3' })).toBe('foundation/scripture-audio/a b.mp3');
  });

  it('encodes each segment of the object URL', () => {
    expect(storageObjectUrl('http://127.0.0.1:54321/', 'resources', 'foundation/scripture-audio/a b#1.mp3')).toBe(
      'http://127.0.0.1:54321/storage/v1/object/resources/foundation/scripture-audio/a%20b%231.mp3',
    );
  });
});

describe('storageErrorMessage', () => {
  it('reads message, then error, then falls back to the status', () => {
    expect(
      storageErrorMessage(
        403,
        '{"statusCode":"403","error":"Unauthorized","message":"new row violates row-level security policy"}',
      ),
    ).toBe('new row violates row-level security policy');
    expect(storageErrorMessage(400, '{"error":"Bad request"}')).toBe('Bad request');
    expect(storageErrorMessage(502, '<html>')).toBe('Upload failed with status 502.');
    expect(storageErrorMessage(0, '')).toBe('Network error: the upload did not reach the server.');
  });
});

describe('resourceContentType', () => {
  it('names the type the bucket allows, whatever the browser reported', () => {
    expect(resourceContentType({ name: 'Book.MOBI', type: 'application/octet-stream' })).toBe(
      'application/x-mobipocket-ebook',
    );
    expect(resourceContentType({ name: 'session.mp3', type: 'audio/mp3' })).toBe('audio/mpeg');
    expect(resourceContentType({ name: 'book.epub', type: '' })).toBe('application/epub+zip');
    expect(resourceContentType({ name: 'guide.pdf', type: 'application/pdf' })).toBe('application/pdf');
  });

  it('falls back to the reported type, then to octet-stream', () => {
    expect(resourceContentType({ name: 'notes.txt', type: 'text/plain' })).toBe('text/plain');
    expect(resourceContentType({ name: 'noext', type: '' })).toBe('application/octet-stream');
  });
});
