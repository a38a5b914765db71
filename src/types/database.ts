/**
 * The shape of the public schema as supabase-js sees it (the same shape
 * `supabase gen types typescript` produces). Keep in step with supabase/migrations; the
 * database tests check the migrations, the app's tests check the shape is used.
 */
export type Tier = 'ebook' | 'foundation' | 'accelerated' | 'complete';

export type Database = {
  public: {
    Tables: {
      profiles: {
        Row: {
          id: string;
          user_id: string;
          display_name: string | null;
          avatar_url: string | null;
          created_at: string;
          updated_at: string;
        };
        Insert: {
          id: string;
          user_id: string;
          display_name?: string | null;
          avatar_url?: string | null;
        };
        Update: {
          display_name?: string | null;
          avatar_url?: string | null;
        };
        Relationships: [];
      };
      user_tiers: {
        Row: { user_id: string; tier: Tier; updated_at: string };
        Insert: { user_id: string; tier: Tier };
        Update: { tier?: Tier };
        Relationships: [];
      };
    };
    Views: Record<never, never>;
    Functions: {
      is_staff: { Args: Record<never, never>; Returns: boolean };
      tier_rank: { Args: { tier: string }; Returns: number | null };
    };
    Enums: { tier: Tier };
    CompositeTypes: Record<never, never>;
  };
};
