import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useId } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { z } from '@/config/zod-config';
import { checkFields, Field, Form, FormAlert, SubmitButton, useForm } from './form';
import { Input } from './input';

/** A promise the test settles by hand, so a submit can be caught while it runs. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const nameSchema = z.object({
  name: z.string().trim().min(2, { error: 'Name is too short' }),
  age: z.coerce.number().int({ error: 'Age must be a whole number' }),
});

/** A small form written the way the site's forms are: uncontrolled fields, read on submit. */
function NameForm({ save }: { save: (name: string) => Promise<void> }) {
  const id = useId();
  const form = useForm();

  async function submit(element: HTMLFormElement) {
    const values = Object.fromEntries(new FormData(element));
    const check = checkFields(nameSchema, values);
    form.setFieldErrors(check.ok ? {} : check.errors);
    if (!check.ok) return;
    await form.run('busy', () => save(check.data.name));
  }

  return (
    <Form state={form} onSubmit={submit} noValidate>
      <Field id={`${id}-name`} label="Name" error={form.fieldErrors.name} hint="Two letters or more" alert>
        <Input name="name" />
      </Field>
      <Field id={`${id}-age`} label="Age" error={form.fieldErrors.age}>
        <Input name="age" />
      </Field>
      <FormAlert message={form.error} prefix="Nothing was saved: " />
      <SubmitButton busy={form.isBusy} label="Save" busyLabel="Saving..." announce />
    </Form>
  );
}

async function fillAndSave(name: string, age = '30') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Name'), name);
  await user.type(screen.getByLabelText('Age'), age);
  await user.click(screen.getByRole('button', { name: 'Save' }));
  return user;
}

describe('useForm with Form and SubmitButton', () => {
  it('runs one submit at a time: a second submit while busy is dropped', async () => {
    const pending = deferred();
    const save = vi.fn(() => pending.promise);
    render(<NameForm save={save} />);
    await fillAndSave('Ada');

    const form = screen.getByRole('button', { name: 'Saving...' }).closest('form')!;
    // Enter in a field, twice, while the first save runs: the button is disabled, the form is not.
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith('Ada');

    await act(async () => pending.resolve());
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('drops a second submit in the same tick, before React has re-rendered', async () => {
    const save = vi.fn(() => new Promise<void>(() => {}));
    render(<NameForm save={save} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Age'), '30');
    const form = screen.getByRole('button', { name: 'Save' }).closest('form')!;
    act(() => {
      fireEvent.submit(form);
      fireEvent.submit(form);
    });
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('marks the form busy: the button disabled with its busy words, said in a status', async () => {
    const pending = deferred();
    render(<NameForm save={() => pending.promise} />);
    await fillAndSave('Ada');

    const button = screen.getByRole('button', { name: 'Saving...' });
    expect(button).toBeDisabled();
    expect(button.closest('form')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Saving...');

    await act(async () => pending.resolve());
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save' }).closest('form')).toHaveAttribute('aria-busy', 'false');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('a failure is the form error, announced (role="alert"), and the form can be sent again', async () => {
    const pending = deferred();
    const save = vi.fn(() => pending.promise);
    render(<NameForm save={save} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const user = await fillAndSave('Ada');

    await act(async () => pending.reject(new Error('The server said no.')));
    expect(screen.getByRole('alert')).toHaveTextContent('Nothing was saved: The server said no.');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();

    save.mockResolvedValueOnce(undefined);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(save).toHaveBeenCalledTimes(2);
    // A new submit clears the old error.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('useForm with two runs in one submit', () => {
  /** A submit that tries once, and when that fails, tries the second way while still in it. */
  function TwoWaysForm({ second }: { second: () => Promise<void> }) {
    const form = useForm();
    async function submit() {
      if (await form.run('busy', () => Promise.reject(new Error('The first way failed.')))) return;
      await form.run('busy', second);
    }
    return (
      <Form state={form} onSubmit={submit}>
        <FormAlert message={form.error} />
        <SubmitButton busy={form.isBusy} label="Send" busyLabel="Sending..." />
      </Form>
    );
  }

  it('the second run clears the error the first one set, though the submit saw none', async () => {
    const second = deferred();
    render(<TwoWaysForm second={() => second.promise} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByRole('button', { name: 'Sending...' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await act(async () => second.reject(new Error('The second way failed too.')));
    expect(screen.getByRole('alert')).toHaveTextContent('The second way failed too.');
  });
});

describe('useForm run order, as the browser runs it (outside act)', () => {
  /** A form whose work awaits once, then sends: as the sign-in awaits its connection first. */
  function SendForm({ send }: { send: () => void }) {
    const form = useForm();
    const work = async () => {
      await null;
      send();
      return new Promise<void>(() => {});
    };
    return (
      <Form state={form} onSubmit={() => form.run('busy', work)}>
        <SubmitButton busy={form.isBusy} label="Send" busyLabel="Sending..." />
      </Form>
    );
  }

  it('starts the work before the busy render: what it sends after its own await goes out first', async () => {
    const shownWhenSent: string[] = [];
    render(<SendForm send={() => shownWhenSent.push(screen.getByRole('button').textContent ?? '')} />);
    // Awaited: render() leaves React a microtask of its own, which a browser event never meets.
    const form = (await screen.findByRole('button', { name: 'Send' })).closest('form')!;
    // React renders a discrete event's updates in a microtask; under act() it renders them at
    // act's end instead, so the submit is dispatched as the browser dispatches it.
    const global = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const actEnvironment = global.IS_REACT_ACT_ENVIRONMENT;
    global.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      await vi.waitFor(() => expect(screen.getByRole('button')).toHaveTextContent('Sending...'));
    } finally {
      global.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
    expect(shownWhenSent).toEqual(['Send']);
  });
});

describe('Field errors from a zod schema', () => {
  it('shows each field its first problem, tied to the field by aria-invalid and aria-describedby', async () => {
    const save = vi.fn(async () => {});
    render(<NameForm save={save} />);
    await fillAndSave(' A', '2.5');

    expect(save).not.toHaveBeenCalled();
    const name = screen.getByLabelText('Name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // The error first, then the hint.
    const [errorId, hintId] = name.getAttribute('aria-describedby')!.split(' ');
    expect(document.getElementById(errorId!)).toHaveTextContent('Name is too short');
    expect(document.getElementById(hintId!)).toHaveTextContent('Two letters or more');
    // `alert` on the name's field: its error is announced; the age's is not.
    expect(screen.getByRole('alert')).toHaveTextContent('Name is too short');

    const age = screen.getByLabelText('Age');
    expect(age).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(age.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Age must be a whole number',
    );
  });

  it('a valid field has no aria-invalid and is described by its hint alone', async () => {
    render(<NameForm save={async () => {}} />);
    const name = screen.getByLabelText('Name');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)).toHaveTextContent('Two letters or more');
    expect(screen.getByLabelText('Age')).not.toHaveAttribute('aria-describedby');
  });

  it('checkFields returns the parsed data, or each field’s first message and the very first', () => {
    expect(checkFields(nameSchema, { name: ' Ada ', age: '30' })).toEqual({ ok: true, data: { name: 'Ada', age: 30 } });
    expect(checkFields(nameSchema, { name: '', age: 'x' })).toEqual({
      ok: false,
      errors: { name: 'Name is too short', age: expect.any(String) },
      first: 'Name is too short',
    });
  });
});

describe('FormAlert', () => {
  it('persistent: an empty, visually hidden alert region until there is a message', () => {
    const { rerender } = render(<FormAlert id="problem" message={null} persistent />);
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
    expect(screen.getByRole('alert')).toHaveClass('sr-only');
    rerender(<FormAlert id="problem" message="Too many requests." persistent />);
    expect(screen.getByRole('alert')).toHaveTextContent('Too many requests.');
    expect(screen.getByRole('alert')).not.toHaveClass('sr-only');
  });
});
