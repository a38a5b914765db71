import type { toast as sonnerToast } from 'sonner';

type Toast = typeof sonnerToast;

/**
 * sonner's `toast.success` and `toast.error`, for a public page's own code: sonner (about
 * 9 kB) is then not part of what the page must download and run before it can hydrate. The
 * Toaster loads it once the page has hydrated (components/ui/toaster.tsx), before any toast
 * can follow: a toast comes after a click or a submit, and meets the module already there.
 */
export const toast = {
  success: (...args: Parameters<Toast['success']>) => void show('success', args),
  error: (...args: Parameters<Toast['error']>) => void show('error', args),
};

async function show(kind: 'success' | 'error', args: Parameters<Toast['success']>) {
  const { toast: sonner } = await import('sonner');
  sonner[kind](...args);
}
