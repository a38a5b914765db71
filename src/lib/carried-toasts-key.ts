/**
 * Where a page leaves the toasts on screen for the next one (toast-handoff.ts). Apart, so a
 * document's script can ask whether there are any without loading the hand-off itself.
 */
export const CARRIED_TOASTS_KEY = 'yes-you-can-toasts';

/** Whether the page before left toasts to show. */
export function hasCarriedToasts(): boolean {
  try {
    return sessionStorage.getItem(CARRIED_TOASTS_KEY) !== null;
  } catch {
    return false;
  }
}
