// GET …/booking-webhook with a staff member's bearer token: which providers can take deliveries
// (their secret is set and BOOKING_PROVIDER leaves them on), by name only, never a value. The
// staff dashboard's "Needs attention" reads it. Who is staff, the database says (staffCheck).
import { bearer, json } from './http.ts';
import { BookingError, type BookingProvider, type ProviderName, type StaffCheck } from './types.ts';

export type ProviderStatus = Record<ProviderName, boolean>;

export function providerStatus(providers: readonly BookingProvider[]): ProviderStatus {
  const on = (name: ProviderName) => providers.some((p) => p.name === name && p.enabled);
  return { calcom: on('calcom'), calendly: on('calendly') };
}

export async function staffStatus(
  req: Request,
  providers: readonly BookingProvider[],
  isStaff: StaffCheck,
): Promise<Response> {
  const token = bearer(req);
  if (!(await isStaff(token))) throw new BookingError(403, 'staff only');
  return json(200, providerStatus(providers));
}
