/**
 * Toasts that must outlive their page. A navigation from the app or a member's island to a
 * public page loads that page as a new document (the public pages are documents), and a toast
 * on screen would go with the old one: "Signed out successfully" as the sign-out goes home.
 * `carryToasts` keeps the success and error toasts on screen (their words only) in the tab's
 * sessionStorage for the next document, whose island shows them again (`takeCarriedToasts`).
 */
import { CARRIED_TOASTS_KEY as KEY } from '@/config/auth-storage';

export type CarriedToast = { type: 'success' | 'error'; title: string; description?: string; duration?: number };

/** Keeps the success and error toasts now on screen for the next page. Never rejects. */
export async function carryToasts(): Promise<void> {
  try {
    const { toast } = await import('sonner');
    const carried: CarriedToast[] = [];
    for (const shown of toast.getToasts()) {
      if (!('type' in shown) || (shown.type !== 'success' && shown.type !== 'error')) continue;
      if (typeof shown.title !== 'string') continue;
      const description = typeof shown.description === 'string' ? shown.description : undefined;
      carried.push({ type: shown.type, title: shown.title, description, duration: shown.duration });
    }
    if (carried.length > 0) sessionStorage.setItem(KEY, JSON.stringify(carried));
  } catch {
    // No sonner or no storage: the next page simply shows no toast.
  }
}

/** The toasts the page before left, once: they are forgotten as they are read. */
export function takeCarriedToasts(): CarriedToast[] {
  try {
    const text = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const parsed: unknown = text ? JSON.parse(text) : [];
    return Array.isArray(parsed) ? parsed.filter(isCarriedToast) : [];
  } catch {
    return [];
  }
}

function isCarriedToast(value: unknown): value is CarriedToast {
  if (typeof value !== 'object' || value === null) return false;
  const toast = value as Record<string, unknown>;
  return (toast.type === 'success' || toast.type === 'error') && typeof toast.title === 'string';
}
