import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { useAuth } from '@/lib/auth-provider';
import { requestPasswordReset } from '../api/request-password-reset';
import { verifyEmailCode, verifyEmailLink } from '../api/verify-email';
import { destination, nextFromRedirect, readConfirmLink } from '../lib/confirm-link';
import { ConfirmView } from './confirm-view';

/**
 * Container for /auth/confirm: reads the mail's link from the address and wires the view to
 * the real calls. Opening the page verifies nothing; the button does. A typed code is checked
 * as GoTrue's `email` type (a sign-up's, an invitation's or a reset's code).
 */
export function ConfirmScreen() {
  // Connected, so a sign-in here reaches the whole app (the account corner, the next page).
  useAuth({ connect: true });
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const link = readConfirmLink(search);
  const next = nextFromRedirect(search, window.location.origin);

  return (
    <ConfirmView
      link={link}
      onVerifyLink={(confirm) => verifyEmailLink(confirm.tokenHash, confirm.type)}
      onVerifyCode={(email, code) => verifyEmailCode(email, code, 'email')}
      // A new link for every kind of mail is a reset link: it confirms an address not yet
      // confirmed and leads to choosing a password, whatever the first mail was.
      onRequestLink={requestPasswordReset}
      onConfirmed={(type) => {
        const { to, purpose } = destination(type ?? 'signup', next);
        if (type === 'email_change') toast.success('Your e-mail address is changed');
        void navigate(to, { replace: true, state: { purpose } });
      }}
    />
  );
}
