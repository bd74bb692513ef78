/**
 * Development defaults shared by the site and the local backend: those of `supabase start` (port
 * 54321, the public demo anon key), so one `.env` works with either.
 */
export const LOCAL_BACKEND_HOST = "127.0.0.1";
export const LOCAL_BACKEND_PORT = 54321;
export const LOCAL_BACKEND_URL = `http://${LOCAL_BACKEND_HOST}:${LOCAL_BACKEND_PORT}`;
export const LOCAL_ANON_KEY =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0";
