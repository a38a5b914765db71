import { useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { ConfirmScreen } from '@/features/auth/components/confirm-screen';
import { SetPasswordScreen } from '@/features/auth/components/set-password-screen';

/** The pages auth e-mails lead to: /auth/confirm (a link's button, or a code), then /auth/set-password. */
export function Component() {
  return useLocation().pathname === paths.confirm ? <ConfirmScreen /> : <SetPasswordScreen />;
}
