import { fileType, titleFromName } from '../src/features/resources/lib/resource-files';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The accessible name of a file's download link, "Download {title} ({type}, {size})", matched
 * without the size (the samples' sizes are not this test's business): the title the page
 * derives from the file name and the start of its type (the extension, "PDF", "EPUB", "MP3").
 */
export function downloadLinkName(fileName: string): RegExp {
  return new RegExp(`^Download ${escape(titleFromName(fileName))} \\(${escape(fileType(fileName, null))}\\b`);
}
