import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { FullPageSpinner } from '@/components/ui/spinner';
import { safeNextPath } from '@/config/paths';
import { requestPasswordReset } from '../api/request-password-reset';
import { signIn } from '../api/sign-in';
import { signUp } from '../api/sign-up';
import { useAuth } from '@/lib/auth-provider';
import { AuthView } from './auth-view';

/**
 * Container for /auth: connects the auth source, sends a signed-in user on to `next`
 * (same-site paths only, default /resources) and wires the view to the real calls.
 */
export function AuthScreen() {
  const { status } = useAuth({ connect: true });
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNextPath(searchParams.get('next'));

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
      onSignIn={signIn}
      onSignUp={signUp}
      onSignedIn={() => void navigate(next, { replace: true })}
      onRequestPasswordReset={requestPasswordReset}
    />
  );
}
