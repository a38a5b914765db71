import { useChangeBenefit, useMemberBenefits } from '../api/live';
import { MemberBenefitsView } from './member-benefits-view';

/** Container of a chosen member's access with an end date: its read, and the change with a reason. */
export function MemberBenefits({ userId, email }: { userId: string; email: string }) {
  const benefits = useMemberBenefits(userId);
  const change = useChangeBenefit();
  return (
    <MemberBenefitsView
      email={email}
      benefits={benefits}
      onChange={(next) => change.mutateAsync({ userId, change: next })}
    />
  );
}
