import { describe, expect, it } from 'vitest';
import { PDF_PROBLEM_ADVICE } from '../../../../supabase/functions/_shared/pdf-update';
import { encryptedPdf } from '../testing/encrypted-pdf';
import { pdfProblemAdvice } from './pdf-check';

const file = (name: string, body: Uint8Array | string) => new File([body as BlobPart], name);

describe('pdfProblemAdvice', () => {
  it('says a password-protected PDF must be exported again without one', async () => {
    expect(await pdfProblemAdvice(file('locked.pdf', encryptedPdf()))).toBe(PDF_PROBLEM_ADVICE.encrypted);
    expect(PDF_PROBLEM_ADVICE.encrypted).toMatch(
      /^This PDF is password-protected\. Export it again without a password/,
    );
  });

  it('says a file named .pdf that is no PDF is not one', async () => {
    expect(await pdfProblemAdvice(file('notes.PDF', 'Just some notes, not a PDF.'))).toBe(PDF_PROBLEM_ADVICE.not_pdf);
  });

  it('passes a PDF that can be stamped', async () => {
    // The same PDF without /Encrypt: its cross-reference table is exact.
    const plain = new TextDecoder().decode(encryptedPdf()).replace(/\/Encrypt <<.*?\/P -3904 >> /, '');
    expect(await pdfProblemAdvice(file('plain.pdf', plain))).toBeNull();
  });

  it('does not read what is not stamped as a PDF', async () => {
    expect(await pdfProblemAdvice(file('talk.mp3', 'ID3'))).toBeNull();
    expect(await pdfProblemAdvice(file('book.mobi', 'BOOKMOBI'))).toBeNull();
  });
});
