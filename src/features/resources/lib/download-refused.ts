/** A download the function refused, with its words for the member. */
export class DownloadRefused extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The words of a refusal for a file that cannot be stamped (422 cannot_prepare), or null:
 * asking again will not help until staff replace the file.
 */
export function cannotPrepare(error: unknown): string | null {
  return error instanceof DownloadRefused && error.code === 'cannot_prepare' ? error.message : null;
}
