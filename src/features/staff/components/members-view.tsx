import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button, buttonClasses } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RetryButton } from '@/components/ui/retry-button';
import { ScrollTable } from '@/components/ui/scroll-table';
import { Spinner } from '@/components/ui/spinner';
import { tierLabel } from '@/content/tiers';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import { formatDateTime, type MemberRow, type MembersPage } from '../lib/members';
import { StaffNav } from './staff-nav';

export type ChosenMember = { userId: string; email: string };

export type StaffMembersViewProps = {
  /** The search the list shows (a case-insensitive part of the e-mail; '' for everyone). */
  search: string;
  onSearch: (search: string) => void;
  /** Where this page starts in the whole result (0-based) and how many a page holds. */
  offset: number;
  pageSize: number;
  onPageChange: (offset: number) => void;
  page: ReadState<MembersPage>;
  chosen: ChosenMember | null;
  onChoose: (member: ChosenMember | null) => void;
  /** The chosen member's panel (the container wires its reads and writes). */
  detail?: ReactNode;
  /** The buyers still waiting for their invitation, shown above the list. */
  waiting?: ReactNode;
  /** Exports every member the search matches, all pages; throws when it cannot. */
  onExport: () => Promise<{ count: number; filename: string }>;
};

const sourceLabels = { purchase: 'Purchase', staff: 'Staff grant' } as const;

/** /staff/members: search, page through, choose a member, export. */
export function StaffMembersView(props: StaffMembersViewProps) {
  const { page, detail, waiting } = props;
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-3">
        <StaffNav />
        <h1 className="text-navy-900 font-serif text-3xl font-bold">Members</h1>
        <p className="text-navy-800">
          Find a member by e-mail, see their tier and where it came from, and grant or revoke a tier with a reason.
        </p>
      </header>

      {waiting}

      <section aria-labelledby="members-list-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="members-list-title" className="sr-only">
          Member list
        </h2>
        <Toolbar {...props} />
        <div className="mt-4">
          {page.status === 'loading' && (
            <Spinner label={page.retrying ? 'Still loading members...' : 'Loading members...'} className="py-10" />
          )}
          {page.status === 'error' && (
            <div role="alert" className="flex flex-col items-start gap-3 py-6">
              <p className="text-navy-900 font-semibold">We couldn&apos;t load the members.</p>
              <p className="text-navy-800">{errorMessage(page.error)}</p>
              <RetryButton retry={page.retry} retrying={page.retrying} variant="gold" size="md" />
            </div>
          )}
          {page.status === 'ready' && (
            <>
              {page.refreshFailed && (
                <p role="status" className="mb-3 flex flex-wrap items-center gap-3 text-sm text-slate-700">
                  This list may be out of date: the latest read failed.
                  <RetryButton retry={page.retry} retrying={page.retrying} />
                </p>
              )}
              <Results {...props} data={page.data} />
            </>
          )}
        </div>
      </section>

      {detail}
    </main>
  );
}

function Toolbar({ search, onSearch, onExport }: StaffMembersViewProps) {
  const id = useId();
  const [term, setTerm] = useState(search);
  // The box follows a search changed from outside it ("Show everyone"); not a remount (a key),
  // which would drop the keyboard focus on every search.
  const [shownSearch, setShownSearch] = useState(search);
  if (search !== shownSearch) {
    setShownSearch(search);
    setTerm(search);
  }
  const [exporting, setExporting] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(term.trim());
  }

  async function exportCsv() {
    if (exporting) return;
    setExporting(true);
    try {
      const { count, filename } = await onExport();
      toast.success('Export ready', {
        description: `${filename}: ${count} ${count === 1 ? 'member' : 'members'}.`,
      });
    } catch (error) {
      toast.error('Export failed', { description: errorMessage(error) });
    } finally {
      setExporting(false);
    }
  }

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <form role="search" onSubmit={submit} className="flex flex-1 flex-col gap-1.5">
        <Label htmlFor={`${id}-search`}>Search by e-mail</Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-search`}
            type="search"
            name="search"
            autoComplete="off"
            spellCheck={false}
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            placeholder="Part of an e-mail address"
            className="min-w-0 flex-1"
          />
          <Button type="submit" variant="primary">
            Search
          </Button>
        </div>
      </form>
      <Button variant="outline" aria-disabled={exporting || undefined} onClick={() => void exportCsv()}>
        {exporting ? 'Exporting...' : 'Export CSV'}
      </Button>
    </div>
  );
}

function Results({
  data,
  search,
  offset,
  pageSize,
  onPageChange,
  onSearch,
  chosen,
  onChoose,
}: StaffMembersViewProps & { data: MembersPage }) {
  const { members, total } = data;
  if (members.length === 0) {
    return <NoResults search={search} offset={offset} onPageChange={onPageChange} onSearch={onSearch} />;
  }

  const first = offset + 1;
  const last = offset + members.length;
  return (
    <>
      <p role="status" aria-live="polite" className="text-navy-800 mb-2 text-sm">
        Showing {first}–{last} of {total}
        {search ? ` matching “${search}”` : ''}
      </p>
      <MembersTable members={members} chosen={chosen} onChoose={onChoose} />
      <PageNav offset={offset} pageSize={pageSize} total={total} last={last} onPageChange={onPageChange} />
    </>
  );
}

/** An empty page: past the end of a list that shrank, no match for the search, or no members. */
function NoResults({
  search,
  offset,
  onPageChange,
  onSearch,
}: Pick<StaffMembersViewProps, 'search' | 'offset' | 'onPageChange' | 'onSearch'>) {
  if (offset > 0) {
    return (
      <div className="flex flex-col items-start gap-3 py-6">
        <p className="text-navy-800">This page is empty: the list has changed since it was opened.</p>
        <Button variant="outline" onClick={() => onPageChange(0)}>
          First page
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-3 py-6">
      <p className="text-navy-900 font-semibold">
        {search ? `No members match “${search}”.` : 'There are no members yet.'}
      </p>
      {search && (
        <Button variant="outline" onClick={() => onSearch('')}>
          Show everyone
        </Button>
      )}
    </div>
  );
}

function MembersTable({
  members,
  chosen,
  onChoose,
}: {
  members: MemberRow[];
  chosen: ChosenMember | null;
  onChoose: (member: ChosenMember | null) => void;
}) {
  return (
    <ScrollTable
      captionId="members-table-caption"
      caption="Members, ordered by e-mail"
      minWidthClassName="min-w-[44rem]"
      columns={[
        'E-mail',
        'Tier',
        'Comes from',
        'Purchases',
        'Joined',
        'Last sign-in',
        <span key="actions" className="sr-only">
          Actions
        </span>,
      ]}
    >
      {members.map((member) => (
        <MemberTableRow
          key={member.userId}
          member={member}
          chosen={chosen?.userId === member.userId}
          onChoose={onChoose}
        />
      ))}
    </ScrollTable>
  );
}

function PageNav({
  offset,
  pageSize,
  total,
  last,
  onPageChange,
}: {
  offset: number;
  pageSize: number;
  total: number;
  /** The 1-based position of this page's last member in the whole result. */
  last: number;
  onPageChange: (offset: number) => void;
}) {
  return (
    <nav aria-label="Member pages" className="mt-3 flex flex-wrap items-center justify-between gap-3">
      <Button
        variant="outline"
        size="sm"
        disabled={offset === 0}
        onClick={() => onPageChange(Math.max(0, offset - pageSize))}
      >
        Previous
      </Button>
      <span className="text-navy-800 text-sm">
        Page {Math.floor(offset / pageSize) + 1} of {Math.max(1, Math.ceil(total / pageSize))}
      </span>
      <Button variant="outline" size="sm" disabled={last >= total} onClick={() => onPageChange(offset + pageSize)}>
        Next
      </Button>
    </nav>
  );
}

function MemberTableRow({
  member,
  chosen,
  onChoose,
}: {
  member: MemberRow;
  chosen: boolean;
  onChoose: (member: ChosenMember | null) => void;
}) {
  return (
    <tr aria-current={chosen || undefined} className={cn('border-navy-100 border-t', chosen && 'bg-gold-300/30')}>
      <th scope="row" className="text-navy-900 px-3 py-2 font-semibold break-all">
        {member.email || '(no e-mail)'}
      </th>
      <td className="px-3 py-2">{member.tier ? tierLabel(member.tier) : 'No tier'}</td>
      <td className="px-3 py-2">{member.tierSource ? sourceLabels[member.tierSource] : '—'}</td>
      <td className="px-3 py-2">{member.purchaseCount}</td>
      <td className="px-3 py-2">{formatDateTime(member.createdAt)}</td>
      <td className="px-3 py-2">{formatDateTime(member.lastSignInAt)}</td>
      <td className="px-3 py-2">
        <button
          type="button"
          onClick={() => onChoose({ userId: member.userId, email: member.email })}
          aria-label={`Manage ${member.email || 'this member'}`}
          className={buttonClasses('outline', 'sm')}
        >
          Manage
        </button>
      </td>
    </tr>
  );
}
