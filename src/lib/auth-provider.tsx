import type { Session, User } from '@supabase/supabase-js';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { AUTH_STORAGE_KEY, hasAuthRedirectInUrl, hasStoredSession } from '@/config/auth-storage';

type SupabaseModule = typeof import('./supabase');

let loaded: SupabaseModule | undefined;

/**
 * The supabase-js client's module, imported on first use: public pages paint without it.
 * Every lazy use goes through here, so the module is imported from one place and kept. (It
 * lives in this module, which every page's app already has, so it costs no chunk of its own.)
 */
export async function loadSupabase(): Promise<SupabaseModule> {
  loaded ??= await import('./supabase');
  return loaded;
}

/**
 * The client's module if it has loaded, else undefined: for a call that must go out in the
 * turn that asks for it (`loadedSupabase() ?? (await loadSupabase())`). A dynamic import()
 * of a module already loaded still resolves a task later, behind whatever the page queued
 * meanwhile (a form's busy render, its paint). See
 * docs/decisions/093-sign-in-sent-in-the-submit-turn.md.
 */
export function loadedSupabase(): SupabaseModule | undefined {
  return loaded;
}

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';

export type AuthState = {
  status: AuthStatus;
  session: Session | null;
  user: User | null;
};

type AuthContextValue = AuthState & {
  /** Loads the Supabase client (once) and starts following auth changes. */
  connect: () => Promise<void>;
};

const AuthContext = createContext<AuthContextValue | null>(null);

const signedOut: AuthState = { status: 'signed-out', session: null, user: null };

function fromSession(session: Session | null): Pick<AuthState, 'status' | 'session' | 'user'> {
  return session
    ? { status: 'signed-in', session, user: session.user }
    : { status: 'signed-out', session: null, user: null };
}

function mayBeSignedIn(): boolean {
  return hasStoredSession() || hasAuthRedirectInUrl();
}

const noSubscription = () => () => {};

/**
 * True while React hydrates a prerendered page (and on the server), false afterwards and in
 * a page rendered on the client alone. The build renders the public pages for a visitor:
 * the hydrating render must say "signed out" too, or it would not match the HTML; the next
 * render tells the truth (React re-renders when the two snapshots differ).
 */
function useHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

/**
 * The one source of auth state. It reads the session at load and then follows
 * onAuthStateChange (sign-in, sign-out, token refresh, user update, other tabs).
 *
 * Why lazy: the landing page must paint without supabase-js, so the client is imported
 * only when a stored session exists, when the page was opened from an auth e-mail (the
 * client takes the session out of the URL), when a member route asks
 * (`useAuth({ connect: true })`), or when another tab writes a session.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  // No stored session (and no session arriving in the URL from an auth e-mail) means signed
  // out for sure: say so at once, without loading the client.
  const [state, setState] = useState<AuthState>(() => ({
    status: mayBeSignedIn() ? 'loading' : 'signed-out',
    session: null,
    user: null,
  }));
  const connecting = useRef<Promise<void> | null>(null);

  const connect = useCallback(() => {
    connecting.current ??= (async () => {
      try {
        const { supabase } = await loadSupabase();
        supabase.auth.onAuthStateChange((_event, session) => {
          // Runs inside the client's auth lock: only set state here, never await the client.
          setState((previous) => ({ ...previous, ...fromSession(session) }));
        });
        const { data, error } = await supabase.auth.getSession();
        if (error) console.error('Could not read the session', error);
        setState((previous) => ({ ...previous, ...fromSession(data.session) }));
      } catch (error) {
        // A missing config or a chunk that failed to load: nobody can be signed in on this
        // page. Member routes show the config error themselves (their own import fails);
        // forget the attempt so the next route that asks tries again.
        console.error('Could not load the Supabase client', error);
        connecting.current = null;
        setState(signedOut);
      }
    })();
    return connecting.current;
  }, []);

  useEffect(() => {
    if (mayBeSignedIn()) void connect();

    const onStorage = (event: StorageEvent) => {
      if (event.key === AUTH_STORAGE_KEY) void connect();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [connect]);

  const hydrating = useHydrating();
  const value = useMemo(
    () => (hydrating ? { ...signedOut, connect } : { ...state, connect }),
    [hydrating, state, connect],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/**
 * Auth state for a component. Member routes pass `{ connect: true }`: until the client has
 * answered, status stays 'loading' for them, so they never redirect on a guess.
 */
export function useAuth(options: { connect?: boolean } = {}): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside <AuthProvider>');
  const { connect } = context;
  const wantsConnection = options.connect === true;
  const [connected, setConnected] = useState(!wantsConnection);

  useEffect(() => {
    if (!wantsConnection) return;
    let active = true;
    void connect().then(() => {
      if (active) setConnected(true);
    });
    return () => {
      active = false;
    };
  }, [connect, wantsConnection]);

  if (!connected) return { ...context, status: 'loading' };
  return context;
}
