// @ts-check
// The Realtime websocket now lives in realtime/ (one module per concern, docs/local-stand-in.md);
// this module keeps the old import path for the code and tests that use it.
export { MAX_CHANNELS_PER_CONNECTION, readJoinPayload } from './realtime/channel.mjs';
export { matchesFilter } from './realtime/postgres-changes.mjs';
export { createRealtimeService } from './realtime/service.mjs';
