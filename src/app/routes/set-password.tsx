import { SetPasswordScreen } from '@/features/auth/components/set-password-screen';

export function Component() {
  return <SetPasswordScreen />;
}
