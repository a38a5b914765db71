import { describe, expect, it } from 'vitest';
import { findResourceCard, resourceCards } from '@/content/resources';
import {
  acceptAttribute,
  checkUploadFile,
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
