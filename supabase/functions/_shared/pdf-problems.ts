// Why a PDF cannot be stamped, and the words staff are given for it: apart from the reader
// (pdf-update.ts), so the staff dashboard can show them without loading it.

export type PdfProblemReason = 'not_pdf' | 'encrypted' | 'damaged';

/** Words for staff, per reason: what is wrong and what to do. */
export const PDF_PROBLEM_ADVICE: Record<PdfProblemReason, string> = {
  not_pdf: 'This file is not a PDF. Export it again as a PDF, then upload it.',
  encrypted:
    'This PDF is password-protected. Export it again without a password (and without permission restrictions), then upload it.',
  damaged:
    'This PDF is damaged: it is cut short, or its pages cannot be found. Open it and export or print it again to a new PDF, then upload it.',
};
