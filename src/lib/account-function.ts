import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from './supabase';

/**
 * Calls the account Edge Function (supabase/functions/account) with the signed-in user's
 * session; only lazy chunks import this (it pulls in supabase-js). A refusal throws an Error
 * with the function's own message, and its `code` (e.g. wrong_password, target_is_staff).
 */
export class AccountFunctionError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function callAccountFunction<T>(
  route: 'export' | 'delete' | 'erase',
  body?: Record<string, unknown>,
): Promise<T> {
  const { data, error } = await supabase.functions.invoke<T>(`account/${route}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { body } : {}),
  });
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    const answer = (await response.json().catch(() => null)) as { error?: string; message?: string } | null;
    throw new AccountFunctionError(
      answer?.message ?? 'Something went wrong. Please try again.',
      answer?.error ?? 'unknown',
      response.status,
    );
  }
  if (error) throw error;
  return data as T;
}
