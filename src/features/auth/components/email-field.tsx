import type { RefObject } from 'react';
import { Field } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { useTypedBeforeApp } from '@/lib/use-typed-before-app';

/**
 * The auth page's e-mail field, shared by its forms. Uncontrolled: the field holds what was
 * typed, also before the app took over the prerendered page; `email` is where it starts, and
 * every change (that early typing included) is handed to `onEmailChange`.
 */
export function EmailField({
  id,
  fieldRef,
  email,
  onEmailChange,
  problemId,
}: {
  id: string;
  fieldRef: RefObject<HTMLInputElement | null>;
  email: string;
  onEmailChange: (email: string) => void;
  /** The id of the message that says what is wrong with it, while something is. */
  problemId?: string;
}) {
  useTypedBeforeApp(fieldRef, email, onEmailChange);
  return (
    <Field id={id} label="Email" invalid={problemId !== undefined} describedBy={problemId}>
      <Input
        ref={fieldRef}
        type="email"
        name="email"
        autoComplete="email"
        required
        defaultValue={email}
        onChange={(event) => onEmailChange(event.target.value)}
        placeholder="you@example.com"
      />
    </Field>
  );
}
