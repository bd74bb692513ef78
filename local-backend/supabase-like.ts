/** Moved to test-support/supabase-like.ts; this re-export serves the database tests until they move to supabase/tests/. */
export * from "./test-support/supabase-like";
