import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { safeNextPath } from '@/config/paths';
import { signIn } from '../api/sign-in';
import { signUp } from '../api/sign-up';
import { useAuth } from '../auth-provider';
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

  // Also covers a sign-in on this page: the auth change arrives and this redirect runs.
  if (status === 'signed-in') return <Navigate to={next} replace />;

  return <AuthView onSignIn={signIn} onSignUp={signUp} onSignedIn={() => navigate(next, { replace: true })} />;
}
