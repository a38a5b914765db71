import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useSessionRevalidation } from '@/lib/use-session-revalidation';
import { useChangeMemberTier } from '../api/change-member-tier';
import { useEraseMember } from '../api/erase-member';
import { useMemberDetail } from '../api/get-member-detail';
import { useIsStaff } from '../api/is-staff';
import { listAllMembers, MEMBERS_PAGE_SIZE, useMembers } from '../api/list-members';
import { isStaffRefusal } from '../api/staff-rpc';
import { downloadTextFile } from '../lib/download';
import { membersCsv, membersCsvFilename } from '../lib/members-csv';
import { StaffCheckFailedView, StaffOnlyView } from './admin-upload-view';
import { DownloadsOverview, MemberDownloads, MemberPlaces } from './downloads';
import { MemberBenefits } from './member-benefits';
import { MemberCoaching } from './member-coaching';
import { MemberDetailView } from './member-detail-view';
import { StaffMembersView, type ChosenMember } from './members-view';
import { WaitingInvitations } from './waiting-invitations';

const task = 'Managing members';

/**
 * Container for /staff/members, for the user the route loader let in. The page asks the
 * staff check only to choose what to show: the database refuses every members function to
 * non-staff (42501), and a refusal mid-session (staff access removed) shows "staff only" too.
 */
export function StaffMembersScreen({ userId }: { userId: string }) {
  const sessionUserId = useSessionRevalidation(userId);
  // Signed out while the page was open: to sign in, and back here afterwards.
  if (!sessionUserId) return <Navigate to={`${paths.auth}?next=${paths.staffMembers}`} replace />;
  return <StaffGate userId={sessionUserId} />;
}

function StaffGate({ userId }: { userId: string }) {
  const staff = useIsStaff(userId);
  if (staff.status === 'loading')
    return <FullPageSpinner label={staff.retrying ? 'Still checking access...' : 'Checking access...'} />;
  if (staff.status === 'error') return <StaffCheckFailedView retry={staff.retry} retrying={staff.retrying} />;
  if (!staff.data) return <StaffOnlyView signedIn task={task} path={paths.staffMembers} />;
  return <MembersPage />;
}

/**
 * The member a link opened the page on (the dashboard's "Access ending this week"):
 * `?search=<e-mail>&member=<user id>` searches for them and opens their panel.
 */
function linkedMember(params: URLSearchParams): { search: string; chosen: ChosenMember | null } {
  const search = params.get('search') ?? '';
  const userId = params.get('member');
  return { search, chosen: userId && search ? { userId, email: search } : null };
}

function MembersPage() {
  const [params] = useSearchParams();
  const [linked] = useState(() => linkedMember(params));
  const [search, setSearch] = useState(linked.search);
  const [offset, setOffset] = useState(0);
  const [chosen, setChosen] = useState<ChosenMember | null>(linked.chosen);
  const page = useMembers(search, offset);

  if (page.status === 'error' && isStaffRefusal(page.error))
    return <StaffOnlyView signedIn task={task} path={paths.staffMembers} />;

  return (
    <StaffMembersView
      search={search}
      onSearch={(next) => {
        setSearch(next);
        setOffset(0);
        setChosen(null);
      }}
      offset={offset}
      pageSize={MEMBERS_PAGE_SIZE}
      onPageChange={setOffset}
      page={page}
      chosen={chosen}
      onChoose={setChosen}
      waiting={
        <>
          <WaitingInvitations />
          <DownloadsOverview />
        </>
      }
      detail={chosen && <MemberPanel key={chosen.userId} member={chosen} onClose={() => setChosen(null)} />}
      onExport={async () => {
        const members = await listAllMembers(search);
        const filename = membersCsvFilename(new Date());
        downloadTextFile(filename, membersCsv(members));
        return { count: members.length, filename };
      }}
    />
  );
}

function MemberPanel({ member, onClose }: { member: ChosenMember; onClose: () => void }) {
  const detail = useMemberDetail(member.userId);
  const change = useChangeMemberTier();
  const erase = useEraseMember();
  return (
    <>
      <MemberDetailView
        email={member.email}
        detail={detail}
        onClose={onClose}
        onGrant={async (tier, reason) => {
          await change.mutateAsync({ kind: 'grant', userId: member.userId, tier, reason });
        }}
        onRevoke={async (reason) => {
          await change.mutateAsync({ kind: 'revoke', userId: member.userId, reason });
        }}
        onErase={async (typedEmail, reason) => {
          await erase.mutateAsync({ userId: member.userId, email: typedEmail, reason });
        }}
        onErased={onClose}
      />
      <MemberCoaching userId={member.userId} email={member.email} />
      <MemberBenefits userId={member.userId} email={member.email} />
      <MemberPlaces userId={member.userId} email={member.email} />
      <MemberDownloads userId={member.userId} email={member.email} />
    </>
  );
}
