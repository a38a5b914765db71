// The speeds the members' player offers. The database takes exactly these (set_playback_rate
// and the member_preferences check); supabase/tests/resource-types.test.ts holds them equal.
export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export type PlaybackRate = (typeof PLAYBACK_RATES)[number];
