import {
  cloneElement,
  useRef,
  useState,
  type FormEvent,
  type FormHTMLAttributes,
  type ReactElement,
  type ReactNode,
} from 'react';
import { errorMessage } from '@/lib/error-message';
import { Button, type ButtonSize, type ButtonVariant } from './button';
import { Label } from './label';

/**
 * The site's one way to write a form: `useForm` holds what a submit is doing (busy, its
 * phase, the form's error and the fields' errors); `Form` runs the submit through it, and
 * `Field`, `FormAlert` and `SubmitButton` show its state with the ids and ARIA wired the same
 * way everywhere.
 *
 * The values stay in the inputs, not here: the prerendered forms are uncontrolled, so what a
 * visitor types before the app hydrates is what the submit reads (src/lib/use-typed-before-app.ts).
 * The primitive imports no form library and no zod at run time, so public pages carry only these
 * few lines; validation takes the feature's zod schema through `checkFields`.
 */

/** Each field's first problem, by field name. */
export type FieldErrors = Partial<Record<string, string>>;

/** Anything with zod's `safeParse`: a zod schema, imported where the form lives. */
type Schema<T> = {
  safeParse: (
    input: unknown,
  ) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
};

export type FieldsCheck<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors; first: string };

/** Checks values against a schema: the parsed data, or each field's first message (and the very first). */
export function checkFields<T>(schema: Schema<T>, values: unknown): FieldsCheck<T> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? '');
    errors[name] ??= issue.message;
  }
  return { ok: false, errors, first: result.error.issues[0]?.message ?? 'Invalid input' };
}

type RunOptions = {
  /** Where a failure's message goes; by default the form's error (shown by FormAlert). */
  onError?: (message: string) => void;
  /** Stay busy after success: the next step takes over (another phase, or leaving the page). */
  stayBusy?: boolean;
};

/**
 * A form's submit state. `Phase` names what a busy form is doing ('uploading' | 'saving');
 * a form with one kind of work leaves it as 'busy'. `onBusyChange` tells the owner (a dialog
 * that must not close while busy).
 */
export function useForm<Phase extends string = 'busy'>(onBusyChange?: (busy: boolean) => void) {
  const [busy, setBusyState] = useState<Phase | null>(null);
  const [error, setErrorState] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  // Read by the guard: a second submit in the same tick sees it before React re-renders.
  const running = useRef(false);
  // The error set last, for `run`, which may come before React has re-rendered with it.
  const errorSet = useRef<string | null>(null);

  function setError(next: string | null) {
    errorSet.current = next;
    setErrorState(next);
  }

  function setBusy(next: Phase | null) {
    running.current = next !== null;
    setBusyState(next);
    onBusyChange?.(next !== null);
  }

  /** A submit event: no page load, and the handler only when no submit is running. */
  function handle(event: FormEvent<HTMLFormElement>, handler: SubmitHandler) {
    event.preventDefault();
    if (running.current) return;
    void handler(event.currentTarget);
  }

  /**
   * Runs the work as `phase`, clearing the form's error; true when it succeeded. The work is
   * started before the busy state is set: React renders that state in a microtask, so a
   * request the work sends after an `await` of its own still goes out before that render
   * (decision 093). An error shown is cleared first, so the work may set one at once; with
   * none shown nothing is set (React may render even an update to the same value).
   */
  async function run(phase: Phase, work: () => unknown, { onError = setError, stayBusy = false }: RunOptions = {}) {
    if (errorSet.current !== null) setError(null);
    const working = (async () => work())();
    setBusy(phase);
    try {
      await working;
    } catch (caught) {
      setBusy(null);
      onError(errorMessage(caught));
      return false;
    }
    if (!stayBusy) setBusy(null);
    return true;
  }

  return { busy, isBusy: busy !== null, error, setError, fieldErrors, setFieldErrors, handle, run };
}

/** What a submit does with the form; busy from `run` until it settles. */
export type SubmitHandler = (form: HTMLFormElement) => unknown;

/**
 * A <form> whose submit goes through `state` (useForm's): marked aria-busy while busy, a
 * second submit dropped. The fields keep their own values; `onSubmit` reads them.
 */
export function Form({
  state,
  onSubmit,
  ...props
}: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & {
  state: Pick<ReturnType<typeof useForm>, 'isBusy' | 'handle'>;
  onSubmit: SubmitHandler;
}) {
  return <form aria-busy={state.isBusy} {...props} onSubmit={(event) => state.handle(event, onSubmit)} />;
}

/** The props a Field gives its control: its id and the ARIA that ties it to its messages. */
export type FieldControlProps = {
  id: string;
  'aria-invalid'?: true | undefined;
  'aria-describedby'?: string | undefined;
};

/**
 * A label, its control (the one child: an input, a textarea, a select), the field's error and
 * a hint. The control is given its id and the ARIA that ties it to them. `alert`: the error is
 * announced as it appears (role="alert"); `describedBy`: further ids that describe the
 * control, and `invalid` marks it invalid, for a problem said elsewhere (the form's alert).
 * `after`: what follows the field (a link that belongs to it).
 */
export function Field({
  id,
  label,
  error,
  hint,
  hintSize = 'xs',
  alert = false,
  describedBy,
  invalid = false,
  after,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  hintSize?: 'xs' | 'sm';
  alert?: boolean;
  describedBy?: string;
  invalid?: boolean;
  after?: ReactNode;
  children: ReactElement<FieldControlProps>;
}) {
  const ids = [error && `${id}-error`, hint != null && `${id}-hint`, describedBy].filter(Boolean).join(' ');
  const control: FieldControlProps = {
    id,
    'aria-invalid': error || invalid ? true : undefined,
    'aria-describedby': ids || undefined,
  };
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {cloneElement(children, control)}
      {error && (
        <p id={`${id}-error`} role={alert ? 'alert' : undefined} className="text-sm font-semibold text-red-700">
          {error}
        </p>
      )}
      {hint != null && (
        <p id={`${id}-hint`} className={hintSize === 'xs' ? 'text-xs text-slate-700' : 'text-sm text-slate-700'}>
          {hint}
        </p>
      )}
      {after}
    </div>
  );
}

/**
 * The form's error, announced (role="alert"). `persistent`: the region is always in the page
 * (hidden while empty), so a message that replaces another is announced too; otherwise it
 * appears framed, after `prefix`, only while there is a message.
 */
export function FormAlert({
  id,
  message,
  prefix = '',
  persistent = false,
}: {
  id?: string;
  message: string | null | undefined;
  prefix?: string;
  persistent?: boolean;
}) {
  if (persistent)
    return (
      <p id={id} role="alert" className={message ? 'rounded-lg bg-red-50 p-3 text-sm text-red-800' : 'sr-only'}>
        {message ?? ''}
      </p>
    );
  if (!message) return null;
  return (
    <p id={id} role="alert" className="rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-800">
      {prefix}
      {message}
    </p>
  );
}

/**
 * The submit button: disabled, with its busy words, while the work runs. `announce` adds a
 * status that says the busy words to a screen reader. (A dialog's, which keeps focus while
 * busy, is ConfirmFooter's.)
 */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  announce = false,
  ...props
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  announce?: boolean;
}) {
  return (
    <>
      <Button type="submit" variant="gold" {...props} disabled={busy}>
        {busy ? busyLabel : label}
      </Button>
      {announce && (
        <p role="status" className="sr-only">
          {busy ? busyLabel : ''}
        </p>
      )}
    </>
  );
}
