import { useEffect, useRef, type RefObject } from 'react';

/**
 * Hands on, once the app has taken over a prerendered field, what the visitor typed into it
 * before: React keeps a hydrated field's text but saw none of the typing, so state
 * derived from the field (a shared e-mail, say) would otherwise start from the empty value
 * the page was built with.
 */
export function useTypedBeforeApp(
  field: RefObject<HTMLInputElement | null>,
  known: string,
  onTyped: (value: string) => void,
) {
  const first = useRef({ known, onTyped });
  useEffect(() => {
    const typed = field.current?.value;
    if (typed !== undefined && typed !== first.current.known) first.current.onTyped(typed);
  }, [field]);
}
