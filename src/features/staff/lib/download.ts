/**
 * Saves `text` as a file through the browser's own download (an object URL on a link with
 * `download`): nothing leaves the page, and the CSP needs no new source.
 */
export function downloadTextFile(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the blob to the download; revoking at once can cancel it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
