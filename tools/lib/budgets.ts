/**
 * The byte budgets of the first load of `/` (issue 4) and how we tell that supabase-js is in a
 * script. `npm run size`, `npm run audit` and the e2e budget test all read them from here.
 */

export const KB = 1024;

/** JavaScript a visitor downloads before interacting with `/`, gzip. */
export const INITIAL_JS_BUDGET_GZIP_BYTES = 110 * KB;

/**
 * What the built pages start before any interaction since issue 14: the loader, webpack's runtime
 * and page-boot (3.7 KB gzip), with React and the form loaded later. The ceiling is there to catch
 * React or the form slipping back into the start-up scripts (a static import of the form once put
 * it into a shared chunk page-boot loads: 6.8 KB).
 */
export const START_UP_JS_BUDGET_GZIP_BYTES = 5 * KB;

/** Everything that goes over the wire for a first visit of `/` (bodies as served, plus headers). */
export const FIRST_LOAD_BUDGET_BYTES = 300 * KB;

export function formatKb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/**
 * Text that only the supabase-js bundle holds: its packages' names (in its client-info header
 * and error messages) and a class name of postgrest-js that survives minification.
 */
const SUPABASE_JS_MARKER =
  /supabase-js[-:]|@supabase\/(auth|postgrest|realtime|storage)-js|PostgrestQueryBuilder/;

/** Whether this script is (or contains) supabase-js, which must load only once the visitor reaches the form. */
export function containsSupabaseJs(script: string): boolean {
  return SUPABASE_JS_MARKER.test(script);
}
