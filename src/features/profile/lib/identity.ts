/**
 * Initials for the avatar fallback (spec section 9): the first letters of the display
 * name's words, at most two, uppercased; else the e-mail's first letter; else 'U'.
 */
export function getInitials(displayName: string | null | undefined, email: string | null | undefined): string {
  const words = (displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    return words
      .slice(0, 2)
      .map((word) => Array.from(word)[0] ?? '')
      .join('')
      .toUpperCase();
  }
  const first = Array.from((email ?? '').trim())[0];
  return first ? first.toUpperCase() : 'U';
}

/** What the menu shows as the name. */
export function displayNameOrPlaceholder(displayName: string | null | undefined): string {
  const name = displayName?.trim();
  return name ? name : 'No name set';
}
