import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { authRedirectAtLoad } from '@/config/auth-storage';
import { safeNextPath } from '@/config/paths';
import { useAuth } from '@/lib/auth-provider';
import { requestPasswordReset } from '../api/request-password-reset';
import { setPassword } from '../api/set-password';
import { setPasswordState } from '../lib/set-password-state';
import { confirmedPurpose } from '../lib/confirm-link';
import { SetPasswordView } from './set-password-view';

/** Container for /auth/set-password: connects the auth source and wires the view to the real calls. */
export function SetPasswordScreen() {
  const { status, user } = useAuth({ connect: true });
  const navigate = useNavigate();
  // Where a person who signed up was going (the confirmation link carries it); else /resources.
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  // The confirm page says which mail's link it verified (navigation state: only this tab's).
  const { state: navigationState } = useLocation();
  const state = setPasswordState(
    status,
    user?.email ?? null,
    authRedirectAtLoad,
    undefined,
    confirmedPurpose(navigationState),
  );

  return (
    <SetPasswordView
      state={state}
      onSetPassword={setPassword}
      onRequestLink={requestPasswordReset}
      onDone={() => void navigate(next, { replace: true })}
    />
  );
}
