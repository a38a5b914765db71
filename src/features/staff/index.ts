// The staff feature's public entry: what other features may use. Everything else in this
// folder is internal (the linter refuses deep imports from other features).
export { useIsStaff } from './api/is-staff';
