/** The profile as the menu knows it: the `profiles` row's two fields, or null when there is no row. */
export type Profile = { displayName: string | null; avatarUrl: string | null };

/**
 * What the menu can say about the profile. Three outcomes of the read, never confused:
 * - `ready`: the read answered (a row, or none: `displayName` null means "No name set");
 *   `refreshFailed` when a later read failed and this is the last good answer, kept.
 * - `error`: no read has answered yet and the last one failed: "could not load".
 * - `loading`: the first read (or a retry of a failed one) is still under way.
 */
export type ProfileState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'ready'; displayName: string | null; avatarUrl: string | null; refreshFailed: boolean };

/** The read's result as react-query reports it (`data` undefined until a read succeeded). */
type ProfileRead = { data: Profile | null | undefined; isError: boolean };

export function profileState({ data, isError }: ProfileRead): ProfileState {
  if (data !== undefined)
    return {
      status: 'ready',
      displayName: data?.displayName ?? null,
      avatarUrl: data?.avatarUrl ?? null,
      refreshFailed: isError,
    };
  return isError ? { status: 'error' } : { status: 'loading' };
}
