import { checkFields } from '@/components/ui/form';
import { z } from '@/config/zod-config';

/** The one credential schema of the auth page; its messages are the spec's (section 5). */
export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .email({ error: 'Invalid email address' })
    .max(255, { error: 'Email must be less than 255 characters' }),
  password: z
    .string()
    .min(6, { error: 'Password must be at least 6 characters' })
    .max(100, { error: 'Password must be less than 100 characters' }),
});

export type Credentials = z.infer<typeof credentialsSchema>;

export type CredentialsCheck = { ok: true; credentials: Credentials } | { ok: false; message: string };

/** Validates the form input; on failure returns the first failing rule's message. */
export function checkCredentials(input: { email: string; password: string }): CredentialsCheck {
  const result = checkFields(credentialsSchema, input);
  return result.ok ? { ok: true, credentials: result.data } : { ok: false, message: result.first };
}
