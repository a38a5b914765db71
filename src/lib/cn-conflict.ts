import { twMerge } from 'tailwind-merge';

/**
 * Throws (in tests) or logs (in dev) when a class list holds two Tailwind classes of the same
 * kind, e.g. a component's `px-3` and a caller's `px-2`: without tailwind-merge both would land
 * in the markup and the stylesheet's order would decide. Only `cn` imports this, behind a
 * `import.meta.env.MODE` check, so production builds drop it and tailwind-merge with it.
 */
export function findConflict(classes: string): [string, string] | null {
  const list = classes.split(/\s+/).filter(Boolean);
  const kept = new Set(twMerge(classes).split(/\s+/));
  const dropped = list.find((c) => !kept.has(c));
  if (dropped === undefined) return null;
  // The class that displaced it: the first later one whose merge with it drops it.
  const winner = list.slice(list.indexOf(dropped) + 1).find((c) => twMerge(dropped, c) === c) ?? '?';
  return [dropped, winner];
}

export function assertNoConflict(classes: string, mode: 'throw' | 'log'): void {
  const conflict = findConflict(classes);
  if (conflict === null) return;
  const message = `cn: "${conflict[0]}" and "${conflict[1]}" conflict in "${classes}"; give the component a variant or prop instead of overriding its class`;
  if (mode === 'throw') throw new Error(message);
  console.error(message);
}
