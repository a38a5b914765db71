import * as catalog from './staff-catalog';
import * as dashboard from './staff-dashboard';
import * as members from './staff-members';
import * as sessions from './staff-sessions';

/**
 * The staff pages as one chunk: they share their gate, navigation and data hooks, and every
 * page's router (start.tsx) lists each lazy chunk it may load, so one chunk for the staff pages
 * keeps the public pages' JavaScript as it was. The chart library stays a chunk of its own.
 */
export const staffDashboard = { loader: dashboard.loader, Component: dashboard.Component };
export const staffCatalog = { loader: catalog.loader, Component: catalog.Component };
export const staffMembers = { loader: members.loader, Component: members.Component };
export const staffSessions = { loader: sessions.loader, Component: sessions.Component };
