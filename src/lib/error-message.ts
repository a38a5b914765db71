/** The text to show for a thrown value: an Error's (or supabase error object's) message. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof Error && error.message) return error.message;
  if (
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string' &&
    error.message
  )
    return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
