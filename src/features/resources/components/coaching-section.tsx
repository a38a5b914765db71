import { useQuery } from '@tanstack/react-query';
import { readState } from '@/lib/read-state';
import { coachingQueryOptions } from '../api/coaching';
import { CoachingView } from './coaching-view';

/** Container: the signed-in member's coaching, read from the database. */
export function CoachingSection({ userId }: { userId: string }) {
  return <CoachingView userId={userId} coaching={readState(useQuery(coachingQueryOptions(userId)))} />;
}
