/** The coaching reads' cache keys: a change by staff reads again what it touched (or all of them). */
export const coachingKeys = {
  all: ['staff', 'coaching'] as const,
  member: (userId: string) => ['staff', 'coaching', 'member', userId] as const,
  upcoming: ['staff', 'coaching', 'upcoming'] as const,
  unmatched: ['staff', 'coaching', 'unmatched'] as const,
  attention: ['staff', 'coaching', 'attention'] as const,
  allowances: ['staff', 'coaching', 'allowances'] as const,
  webhook: ['staff', 'coaching', 'webhook'] as const,
};
