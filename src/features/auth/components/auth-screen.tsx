import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { FullPageSpinner } from '@/components/ui/spinner';
import { safeNextPath } from '@/config/paths';
import { requestPasswordReset } from '../api/request-password-reset';
import { signIn, type StartedSession } from '../api/sign-in';
import { signUp } from '../api/sign-up';
import { afterLoad } from '@/lib/after-load';
import { useAuth } from '@/lib/auth-provider';
import { AuthView } from './auth-view';

/**
 * Container for /auth: sends a signed-in user on to `next` (same-site paths only, default
 * /resources) and wires the view to the real calls.
 *
 * The form shows (prerendered, typeable) before supabase-js loads: a visitor with no stored
 * session is signed out for sure, and the client is fetched after the page's `load` event,
 * or on submit if that comes first. Connecting the auth source makes a sign-in here reach
 * the whole app (the account corner), not only the page it goes to next.
 */
export function AuthScreen({
  onSessionStarted,
}: {
  /**
   * Called with where the member goes next and their new session the moment a sign-in
   * succeeds, before the page re-renders and navigates: the app starts that page's reads now,
   * so they overlap the rest.
   */
  onSessionStarted?: (next: string, session: StartedSession) => void;
} = {}) {
  const { status, connect } = useAuth();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNextPath(searchParams.get('next'));

  useEffect(() => afterLoad(() => void connect()), [connect]);

  // Also covers a sign-in (or a signed-in sign-up) on this page: the auth change arrives
  // and this redirect runs.
  if (status === 'signed-in') return <Navigate to={next} replace />;
  // A stored session is being checked: no form to flash at someone about to be sent on.
  if (status === 'loading')
    return (
      <FullPageSpinner
        label="Checking your session..."
        className="from-navy-900 to-navy-700 bg-gradient-to-b"
        spinnerClassName="rounded-xl bg-white p-6 shadow-xl"
      />
    );

  return (
    <AuthView
      onSignIn={async (credentials) => {
        await connect();
        onSessionStarted?.(next, await signIn(credentials));
      }}
      onSignUp={async (credentials) => {
        await connect();
        return signUp(credentials, next);
      }}
      onSignedIn={() => void navigate(next, { replace: true })}
      onRequestPasswordReset={async (email) => {
        await connect();
        return requestPasswordReset(email);
      }}
    />
  );
}
