import { describe, expect, it } from 'vitest';
import { activeGrant, checkReason, formatAmount, parseMemberDetail, parseMembersPage } from './members';

const row = {
  user_id: 'u1',
  email: 'ann@example.com',
  tier: 'ebook',
  tier_source: 'staff',
  purchase_count: 0,
  created_at: '2026-11-01T10:00:00+00:00',
  last_sign_in_at: null,
  total_count: 41,
};

describe('parseMembersPage', () => {
  it('maps rows and takes the total from them', () => {
    expect(parseMembersPage([row])).toEqual({
      total: 41,
      members: [
        {
          userId: 'u1',
          email: 'ann@example.com',
          tier: 'ebook',
          tierSource: 'staff',
          purchaseCount: 0,
          createdAt: '2026-11-01T10:00:00+00:00',
          lastSignInAt: null,
        },
      ],
    });
  });

  it('reads no rows as none in all', () => {
    expect(parseMembersPage([])).toEqual({ members: [], total: 0 });
  });

  it('refuses a tier the site does not know', () => {
    expect(() => parseMembersPage([{ ...row, tier: 'platinum' }])).toThrow();
  });
});

describe('parseMemberDetail and activeGrant', () => {
  const grant = {
    id: 'g1',
    tier: 'complete',
    reason: 'Speaker',
    granted_by_email: 'staff@example.com',
    granted_at: '2026-11-02T10:00:00+00:00',
    revoked_at: null,
    revoked_by_email: null,
    revoke_reason: null,
  };
  const detail = {
    user_id: 'u1',
    email: 'ann@example.com',
    tier: 'complete',
    tier_source: {
      kind: 'staff',
      grant_id: 'g1',
      granted_by_email: 'staff@example.com',
      reason: 'Speaker',
      granted_at: grant.granted_at,
    },
    purchases: [],
    grants: [{ ...grant, id: 'g0', revoked_at: '2026-11-02T09:00:00+00:00' }, grant],
    audit: [],
  };

  it('finds the grant still in force', () => {
    expect(activeGrant(parseMemberDetail(detail))?.id).toBe('g1');
    expect(activeGrant(parseMemberDetail({ ...detail, grants: [] }))).toBeNull();
  });

  it('refuses an unknown source kind', () => {
    expect(() => parseMemberDetail({ ...detail, tier_source: { kind: 'gift' } })).toThrow();
  });
});

describe('checkReason', () => {
  it('requires a non-blank reason of at most 500 characters', () => {
    expect(checkReason('   ')).toBe('Give a reason: it is kept in the audit log.');
    expect(checkReason('x'.repeat(501))).toBe('Keep the reason to 500 characters or fewer.');
    expect(checkReason(` ${'x'.repeat(500)} `)).toBeNull();
  });
});

describe('formatAmount', () => {
  it('reads minor units in the currency’s own decimals', () => {
    expect(formatAmount(4700, 'USD')).toBe('$47.00');
    expect(formatAmount(4700, 'JPY')).toBe('¥4,700');
  });
});
