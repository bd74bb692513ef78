/**
 * The byte budgets of the first load of `/`, how their figures are written, and how we tell that
 * supabase-js is in a script. `npm run size`, `npm run audit` and the e2e budget test read them here.
 */

export const KB = 1024;

/** JavaScript a visitor downloads before interacting with `/`, gzip. */
export const INITIAL_JS_BUDGET_GZIP_BYTES = 110 * KB;

/** What the built page starts before any interaction: catches React or the form slipping in. */
export const START_UP_JS_BUDGET_GZIP_BYTES = 5 * KB;

/** Everything that goes over the wire for a first visit of `/` (bodies as served, plus headers). */
export const FIRST_LOAD_BUDGET_BYTES = 300 * KB;

export function formatKb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** Text only the supabase-js bundle holds, minified or not. */
const SUPABASE_JS_MARKER =
  /supabase-js[-:]|@supabase\/(auth|postgrest|realtime|storage)-js|PostgrestQueryBuilder/;

/** Whether this script is (or holds) supabase-js, which must load only once the visitor nears the form. */
export function containsSupabaseJs(script: string): boolean {
  return SUPABASE_JS_MARKER.test(script);
}
