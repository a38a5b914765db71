import { FunctionsHttpError } from '@supabase/supabase-js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from '@/config/zod-config';
import { readState, type ReadState } from '@/lib/read-state';
import { supabase } from '@/lib/supabase';
import type { WebhookStatus } from '../lib/coaching';
import { coachingKeys } from './coaching-keys';

const statusSchema = z.object({ calcom: z.boolean(), calendly: z.boolean() });

/**
 * Asks the booking webhook, with the staff member's session, which providers can take
 * deliveries (`GET …/functions/v1/booking-webhook`; names only, never a secret). Its 503 (not
 * configured) and a 404 (not deployed) both mean no booking is recorded: null.
 */
export async function getWebhookStatus(): Promise<WebhookStatus> {
  const { data, error } = await supabase.functions.invoke<unknown>('booking-webhook', { method: 'GET' });
  if (error instanceof FunctionsHttpError && [404, 503].includes((error.context as Response).status)) return null;
  if (error) throw error;
  return statusSchema.parse(data);
}

/** Read once a page: secrets change by a deploy, not while the dashboard is open. */
export function useWebhookStatus(): ReadState<WebhookStatus> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: coachingKeys.webhook,
        queryFn: getWebhookStatus,
        staleTime: 5 * 60_000,
        meta: { errorMessage: 'Could not ask the booking webhook which providers are on' },
      }),
    ),
  );
}
