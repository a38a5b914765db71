import { unzlibSync } from 'fflate';
import { checkPdf, PDF_PROBLEM_ADVICE, PdfProblem } from '../../../../supabase/functions/_shared/pdf-update';

/**
 * Why members could not get their stamped copy of this file, in words for staff, or null when
 * it can be stamped. Only PDFs are checked (by name, as the upload sends their content type),
 * with the same check the download function stamps with: a file refused here would be refused
 * to every member. An error other than the file's own (it could not be read) is thrown.
 * See docs/decisions/095-what-cannot-be-stamped-is-refused.md.
 */
export async function pdfProblemAdvice(file: Pick<File, 'name' | 'arrayBuffer'>): Promise<string | null> {
  if (!/\.pdf$/i.test(file.name)) return null;
  const bytes = new Uint8Array(await file.arrayBuffer());
  try {
    checkPdf(bytes, unzlibSync);
    return null;
  } catch (error) {
    if (error instanceof PdfProblem) return PDF_PROBLEM_ADVICE[error.reason];
    throw error;
  }
}
