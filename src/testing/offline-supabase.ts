import { vi } from 'vitest';
import { AUTH_STORAGE_KEY } from '@/config/auth-storage';

/**
 * Test helpers for containers that use the real supabase-js client and auth provider. The
 * URL points at the discard port, so nothing here can reach a server by accident: a
 * container test only covers what the client decides locally (stored session, sign-out).
 */
export function useOfflineSupabaseEnv() {
  vi.stubEnv('VITE_SUPABASE_URL', 'http://127.0.0.1:9');
  // An anon-role JWT shape: the env check refuses any other role.
  vi.stubEnv('VITE_SUPABASE_ANON_KEY', `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ role: 'anon' })}.offline`);
}

function encode(value: object): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Writes a session the client accepts without a network call (valid for an hour). */
export function storeSession(user: { id: string; email: string }) {
  const expiresAt = Math.floor(Date.now() / 1000) + 3600;
  // JWT-shaped (the client reads `exp` from it); the signature is never checked offline.
  const accessToken = [
    encode({ alg: 'HS256', typ: 'JWT' }),
    encode({ sub: user.id, email: user.email, role: 'authenticated', aud: 'authenticated', exp: expiresAt }),
    'offline-signature',
  ].join('.');
  const session = {
    access_token: accessToken,
    refresh_token: 'offline-refresh',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: expiresAt,
    user: {
      id: user.id,
      email: user.email,
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: {},
      user_metadata: {},
      created_at: new Date().toISOString(),
    },
  };
  window.localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(session));
}
