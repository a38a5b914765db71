// The tiers feature's public entry: what other features may use. Everything else in this
// folder is internal (the linter refuses deep imports from other features).
export { userTierQueryOptions, useUserTier, tierKeys } from './api/get-user-tier';
export { useTierRealtime } from './api/use-tier-realtime';
