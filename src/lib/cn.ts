import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names (skipping empty ones) and resolves Tailwind conflicts, so a caller's
 * `className="px-2"` replaces a component's own `px-3` instead of both landing in the
 * markup and the stylesheet's order deciding. clsx + tailwind-merge, as shadcn/ui does.
 */
export function cn(...classes: ClassValue[]): string {
  return twMerge(clsx(classes));
}
