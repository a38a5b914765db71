import { clsx, type ClassValue } from 'clsx';
import { assertNoConflict } from './cn-conflict';

/**
 * Joins class names, skipping empty ones (clsx). It does not resolve Tailwind conflicts: a
 * component offers a variant or prop for what callers change, instead of callers overriding
 * its classes. Tests throw and dev logs when two classes of the same kind meet (tailwind-merge
 * checks that, outside production only: it slows the first render).
 */
export function cn(...classes: ClassValue[]): string {
  const result = clsx(classes);
  if (import.meta.env.MODE === 'test') assertNoConflict(result, 'throw');
  else if (import.meta.env.DEV) assertNoConflict(result, 'log');
  return result;
}
